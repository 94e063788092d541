"""Who is at a match: players' sockets and spectators, in Redis so every Daphne process agrees,
and since when a player is away (the reconnect window, issue 17).

One hash per match: socket channel name → "<seat>|<process token>" ("s" for a spectator). Each
Daphne process (each event loop's hub, games/hub.py) keeps a heartbeat key alive while it runs
(HEARTBEAT_SECONDS, expiring after PROCESS_TTL_SECONDS): an entry whose process has no heartbeat
belongs to a crashed process and is ignored and cleaned up, so a seat is never shown online by a
dead process for more than PROCESS_TTL_SECONDS plus one watch period. Keeping one key per process
alive costs one command per period however many sockets it holds.

A second hash per match remembers since when (epoch ms) each seat has been away: set the first
time anyone sees the seat without a socket, removed when it is back. The hubs watch their matches
every period and publish a `presence` message when who is there changes (a crashed process says
nothing, so the survivors notice for it).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import redis
from django.conf import settings

from config.redis_client import client

REFRESH_SECONDS = 30  # the entries of live sockets are rewritten (a hash may have expired)
HEARTBEAT_SECONDS = 1.0
PROCESS_TTL_SECONDS = 4
KEEP_SECONDS = 24 * 3600  # a match's hash outlives a crashed process's last refresh
SPECTATOR = "s"
SEATS = ("0", "1")

# This process's token: a restarted process gets a new one, so it never revives its old entries.
PROCESS_TOKEN = secrets.token_hex(8)


def _key(match_id: int) -> str:
    return f"{settings.REDIS_PREFIX}:presence:{match_id}"


def _away_key(match_id: int) -> str:
    return f"{settings.REDIS_PREFIX}:presence:{match_id}:away"


def _process_key(token: str) -> str:
    return f"{settings.REDIS_PREFIX}:presence:process:{token}"


def _entry(seat: int | None) -> str:
    return f"{SPECTATOR if seat is None else seat}|{PROCESS_TOKEN}"


@dataclass(frozen=True)
class Presence:
    """Who is at a match now, and for how long each absent player has been away."""

    players: dict[str, bool]
    spectators: int
    away_ms: dict[str, int | None]  # per seat: ms since it went away, None while it is here

    def message(self) -> dict[str, object]:
        """The `presence` fields of docs/protocol.md."""
        return {
            "presence": self.players,
            "spectators": self.spectators,
            "away_ms": self.away_ms,
            "reconnect_seconds": settings.RECONNECT_WINDOW_SECONDS,
        }


def heartbeat_command(pipe) -> None:
    pipe.set(_process_key(PROCESS_TOKEN), "1", ex=PROCESS_TTL_SECONDS)


async def presence_join(match_id: int, channel_name: str, seat: int | None) -> None:
    await presence_refresh([(match_id, channel_name, seat)])


async def presence_refresh(sockets: Iterable[tuple[int, str, int | None]]) -> None:
    """Mark each (match id, socket channel name, seat) as here, in one round trip."""
    async with client().pipeline(transaction=False) as pipe:
        heartbeat_command(pipe)
        keys = set()
        for match_id, channel_name, seat in sockets:
            keys.add(_key(match_id))
            pipe.hset(_key(match_id), channel_name, _entry(seat))
        for key in keys:
            pipe.expire(key, KEEP_SECONDS)
        await pipe.execute()


async def presence_heartbeat() -> None:
    async with client().pipeline(transaction=False) as pipe:
        heartbeat_command(pipe)
        await pipe.execute()


async def presence_leave(match_id: int, channel_name: str) -> None:
    await client().hdel(_key(match_id), channel_name)


# --- Reading -------------------------------------------------------------------------------------


def _decode(entries: dict[bytes, bytes]) -> list[tuple[bytes, str, str]]:
    decoded = []
    for channel, value in entries.items():
        who, _, token = value.decode().partition("|")
        decoded.append((channel, who, token))
    return decoded


def _tokens(decoded: list[tuple[bytes, str, str]]) -> list[str]:
    return sorted({token for _, _, token in decoded})


@dataclass(frozen=True)
class _Reading:
    presence: Presence
    stale: list[bytes]  # entries of dead processes, to delete
    mark_away: list[str]  # seats seen away with no mark yet
    clear_away: list[str]  # seats back with a mark left


def _summarise(
    decoded: list[tuple[bytes, str, str]],
    alive: dict[str, bool],
    away_marks: dict[bytes, bytes],
    now_ms: int,
) -> _Reading:
    players = dict.fromkeys(SEATS, False)
    spectators = 0
    stale: list[bytes] = []
    for channel, who, token in decoded:
        if not alive.get(token):
            stale.append(channel)
        elif who == SPECTATOR:
            spectators += 1
        elif who in players:
            players[who] = True
    marks = {seat.decode(): int(since) for seat, since in away_marks.items()}
    away: dict[str, int | None] = {}
    mark_away, clear_away = [], []
    for seat in SEATS:
        if players[seat]:
            away[seat] = None
            if seat in marks:
                clear_away.append(seat)
        else:
            away[seat] = max(0, now_ms - marks.get(seat, now_ms))
            if seat not in marks:
                mark_away.append(seat)
    return _Reading(Presence(players, spectators, away), stale, mark_away, clear_away)


def _now_ms() -> int:
    return int(time.time() * 1000)


async def presence_read(match_id: int) -> Presence:
    """Who is at the match now; cleans up dead processes' entries and keeps the away marks."""
    (reading,) = await presence_read_many([match_id])
    return reading


async def presence_read_many(match_ids: list[int]) -> list[Presence]:
    """Several matches' presence in three round trips (the hubs' watch, games/hub.py)."""
    if not match_ids:
        return []
    redis_client = client()
    async with redis_client.pipeline(transaction=False) as pipe:
        for match_id in match_ids:
            pipe.hgetall(_key(match_id))
            pipe.hgetall(_away_key(match_id))
        results = await pipe.execute()
    decoded = [_decode(entries) for entries in results[0::2]]
    tokens = sorted({token for entries in decoded for token in _tokens(entries)})
    alive = {}
    if tokens:
        values = await redis_client.mget([_process_key(token) for token in tokens])
        alive = {token: value is not None for token, value in zip(tokens, values, strict=True)}
    now = _now_ms()
    readings = [
        _summarise(entries, alive, marks, now)
        for entries, marks in zip(decoded, results[1::2], strict=True)
    ]
    writes = False
    async with redis_client.pipeline(transaction=False) as pipe:
        for match_id, reading in zip(match_ids, readings, strict=True):
            writes |= _queue_writes(pipe, match_id, reading, now)
        if writes:
            await pipe.execute()
    return [reading.presence for reading in readings]


def _queue_writes(pipe, match_id: int, reading: _Reading, now_ms: int) -> bool:
    if reading.stale:
        pipe.hdel(_key(match_id), *reading.stale)
    for seat in reading.mark_away:
        pipe.hsetnx(_away_key(match_id), seat, now_ms)  # the first to see it away sets it
    if reading.mark_away:
        pipe.expire(_away_key(match_id), KEEP_SECONDS)
    if reading.clear_away:
        pipe.hdel(_away_key(match_id), *reading.clear_away)
    return bool(reading.stale or reading.mark_away or reading.clear_away)


async def presence_of(match_id: int) -> tuple[dict[str, bool], int]:
    """({"0": online?, "1": online?}, number of spectators)."""
    reading = await presence_read(match_id)
    return reading.players, reading.spectators


async def spectator_counts(match_ids: list[int]) -> dict[int, int]:
    if not match_ids:
        return {}
    readings = await presence_read_many(match_ids)
    return {
        match_id: reading.spectators for match_id, reading in zip(match_ids, readings, strict=True)
    }


# --- For services (a worker thread, no event loop) -----------------------------------------------


@cache
def _sync_client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


def seat_away_ms(match_id: int, seat: int) -> int | None:
    """How long a seat has been away from the match (ms), None while one of its sockets is
    open. For the claim service (games/services/lifecycle.py); it writes nothing: the away mark
    it reads was set by whoever saw the seat go (a socket closing, a hub's watch)."""
    redis_client = _sync_client()
    with redis_client.pipeline(transaction=False) as pipe:
        pipe.hgetall(_key(match_id))
        pipe.hgetall(_away_key(match_id))
        entries, marks = pipe.execute()
    decoded = _decode(entries)
    tokens = _tokens(decoded)
    alive = {}
    if tokens:
        values = redis_client.mget([_process_key(token) for token in tokens])
        alive = {token: value is not None for token, value in zip(tokens, values, strict=True)}
    reading = _summarise(decoded, alive, marks, _now_ms())
    key = str(seat)
    if reading.presence.players[key]:
        return None
    if key in reading.mark_away:
        return 0  # nobody has noted it away yet: its window starts now
    return reading.presence.away_ms[key]
