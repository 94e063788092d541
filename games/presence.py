"""Who is at a match: players' sockets and spectators, in Redis so every Daphne process agrees,
and since when a player is away (the reconnect window, docs/rules.md, Platform rules, Disconnects).

One hash per match: socket channel name → "<seat>|<process token>" ("s" for a spectator). Each
Daphne process (each event loop's hub, games/hub.py) keeps a heartbeat key alive while it runs
(HEARTBEAT_SECONDS, expiring after PROCESS_TTL_SECONDS): an entry whose process has no heartbeat
belongs to a crashed process and is ignored and cleaned up, so a seat is never shown online by a
dead process for more than PROCESS_TTL_SECONDS plus one watch period. Keeping one key per process
alive costs one command per period however many sockets it holds.

A second hash per match remembers since when (epoch ms) each seat has been away, for the reconnect
window (docs/rules.md "Platform rules", Disconnects; docs/protocol.md `presence` and `claim`).
Nothing is away before the match starts: the hash's `started` field is written when it starts
(`presence_match_started`, after the commit), with every seat that has no socket then marked away
from that instant, so a player who never comes has the whole window counted from the start. From
then on a seat is marked the first time anyone sees it without a socket (its last socket closed, or
its process died), and the mark is removed when it is back. While `started` is missing no mark is
written and no seat is reported away, whatever anyone read while the challenge was open. Should the
field be lost (Redis restarted empty, or the start's write failed), the claim and the snapshots of
an active match write it again as "now": the windows then start late, never early.

The hubs watch the register of processes every period, which costs the same however many sockets
there are, and read their matches' presence when a process came or went (and every
REFRESH_SECONDS in any case); they publish a `presence` message where who is there changed (a
crashed process says nothing, so the survivors notice for it).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from config.redis_client import client
from config.redis_client import sync_client as _sync_client
from games.events import match_message
from realtime.publisher import publish

REFRESH_SECONDS = 30  # the entries of live sockets are rewritten (a hash may have expired)
HEARTBEAT_SECONDS = 1.0
PROCESS_TTL_SECONDS = 4
FORGET_PROCESS_SECONDS = 3600
KEEP_SECONDS = 24 * 3600  # a match's hash outlives a crashed process's last refresh
SPECTATOR = "s"
SEATS = ("0", "1")
STARTED = "started"  # the away hash's field: since when presence watches the started match

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


def _processes_key() -> str:
    return f"{settings.REDIS_PREFIX}:presence:processes"


def heartbeat_command(pipe) -> None:
    """Keep this process's heartbeat alive, and its token in the register of processes that the
    hubs watch (`processes_alive`)."""
    pipe.set(_process_key(PROCESS_TOKEN), "1", ex=PROCESS_TTL_SECONDS)
    pipe.zadd(_processes_key(), {PROCESS_TOKEN: _now_ms()})


async def presence_join(match_id: int, channel_name: str, seat: int | None) -> None:
    await presence_refresh([(match_id, channel_name, seat)])


async def presence_refresh(sockets: Iterable[tuple[int, str, int | None]]) -> None:
    """Mark each (match id, socket channel name, seat) as here, in one round trip."""
    async with client().pipeline(transaction=False) as pipe:
        heartbeat_command(pipe)
        match_ids = set()
        for match_id, channel_name, seat in sockets:
            match_ids.add(match_id)
            pipe.hset(_key(match_id), channel_name, _entry(seat))
        for match_id in match_ids:
            pipe.expire(_key(match_id), KEEP_SECONDS)
            pipe.expire(_away_key(match_id), KEEP_SECONDS)  # a long match keeps `started`
        await pipe.execute()


async def processes_alive() -> frozenset[str]:
    """Keep this process's heartbeat alive and return the tokens of every process whose
    heartbeat is alive now: two round trips whatever the number of sockets and matches, so the
    hubs can watch each second for a process that vanished (games/hub.py) and read their
    matches' presence only then. A token leaves the register FORGET_PROCESS_SECONDS after its
    last heartbeat; by then every hub has seen it die."""
    redis_client = client()
    now = _now_ms()
    async with redis_client.pipeline(transaction=False) as pipe:
        heartbeat_command(pipe)
        pipe.zremrangebyscore(_processes_key(), "-inf", now - FORGET_PROCESS_SECONDS * 1000)
        pipe.zrange(_processes_key(), 0, -1)
        *_, registered = await pipe.execute()
    tokens = [token.decode() for token in registered]
    values = await redis_client.mget([_process_key(token) for token in tokens])
    return frozenset(token for token, value in zip(tokens, values, strict=True) if value)


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


def _marks(away_hash: dict[bytes, bytes]) -> dict[str, int]:
    return {field.decode(): int(value) for field, value in away_hash.items()}


@dataclass(frozen=True)
class _Reading:
    presence: Presence
    stale: list[bytes]  # entries of dead processes, to delete
    mark_away: list[str]  # seats seen away with no mark yet
    clear_away: list[str]  # seats back with a mark left


def _summarise(
    decoded: list[tuple[bytes, str, str]],
    alive: dict[str, bool],
    marks: dict[str, int],
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
    started = marks.get(STARTED)
    away: dict[str, int | None] = {}
    mark_away, clear_away = [], []
    for seat in SEATS:
        if players[seat]:
            away[seat] = None
            if seat in marks:
                clear_away.append(seat)
        elif started is None:
            away[seat] = None  # before the start nobody is away (see the module's docstring)
        else:
            since = max(marks.get(seat, now_ms), started)
            away[seat] = max(0, now_ms - since)
            if seat not in marks:
                mark_away.append(seat)
    return _Reading(Presence(players, spectators, away), stale, mark_away, clear_away)


def _now_ms() -> int:
    return int(time.time() * 1000)


async def presence_read(match_id: int, *, active: bool = False) -> Presence:
    """Who is at the match now; cleans up dead processes' entries and keeps the away marks.
    `active`: the caller knows the match is being played (a snapshot says so), so a lost
    `started` field is written again (as now)."""
    (reading,) = await presence_read_many([match_id], active=[match_id] if active else [])
    return reading


async def presence_read_many(match_ids: list[int], *, active: Sequence[int] = ()) -> list[Presence]:
    """Several matches' presence in three round trips; `active`: those of them the caller knows
    are being played (see `presence_read`)."""
    return [reading.presence for reading in await _read_many(match_ids, active=active)]


async def presence_look(match_ids: list[int]) -> list[tuple[Presence, bool]]:
    """Several matches' presence, each with whether this read found and removed entries of a
    dead process (its sockets vanished without a word): the hubs' watch (games/hub.py)."""
    return [(reading.presence, bool(reading.stale)) for reading in await _read_many(match_ids)]


async def _read_many(match_ids: list[int], *, active: Sequence[int] = ()) -> list[_Reading]:
    if not match_ids:
        return []
    redis_client = client()
    now = _now_ms()
    async with redis_client.pipeline(transaction=False) as pipe:
        for match_id in active:
            _queue_started_if_missing(pipe, match_id, now)
        for match_id in match_ids:
            pipe.hgetall(_key(match_id))
            pipe.hgetall(_away_key(match_id))
        results = (await pipe.execute())[2 * len(active) :]
    decoded = [_decode(entries) for entries in results[0::2]]
    tokens = sorted({token for entries in decoded for token in _tokens(entries)})
    alive = {}
    if tokens:
        values = await redis_client.mget([_process_key(token) for token in tokens])
        alive = {token: value is not None for token, value in zip(tokens, values, strict=True)}
    readings = [
        _summarise(entries, alive, _marks(marks), now)
        for entries, marks in zip(decoded, results[1::2], strict=True)
    ]
    writes = False
    async with redis_client.pipeline(transaction=False) as pipe:
        for match_id, reading in zip(match_ids, readings, strict=True):
            writes |= _queue_writes(pipe, match_id, reading, now)
        if writes:
            await pipe.execute()
    return readings


def _queue_started_if_missing(pipe, match_id: int, now_ms: int) -> None:
    """Two commands: `started` as now unless it is there (the first writer wins)."""
    pipe.hsetnx(_away_key(match_id), STARTED, now_ms)
    pipe.expire(_away_key(match_id), KEEP_SECONDS)


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


def _alive_now(redis_client, decoded: list[tuple[bytes, str, str]]) -> dict[str, bool]:
    tokens = _tokens(decoded)
    if not tokens:
        return {}
    values = redis_client.mget([_process_key(token) for token in tokens])
    return {token: value is not None for token, value in zip(tokens, values, strict=True)}


def _epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def presence_match_started(match_id: int, started_at: datetime) -> None:
    """`presence_matches_started` of one match."""
    presence_matches_started([(match_id, started_at)])


def presence_matches_started(began: Sequence[tuple[int, datetime]]) -> None:
    """These matches have started (called after their commit, games/effects.py), each at its
    `started_at`: presence watches each from then on. Each seat without a socket now is away
    since the start; marks left from before are dropped. Then a `presence` message tells the
    pages, which count the window down from it (docs/protocol.md). The same round trips for any
    number of matches (a tournament's pairing wave begins hundreds at once)."""
    if not began:
        return
    redis_client = _sync_client()
    with redis_client.pipeline(transaction=False) as pipe:
        for match_id, _started_at in began:
            pipe.hgetall(_key(match_id))
        decoded = [_decode(entries) for entries in pipe.execute()]
    alive = _alive_now(redis_client, [entry for entries in decoded for entry in entries])
    marks_of = []
    with redis_client.pipeline(transaction=True) as pipe:
        for (match_id, started_at), entries in zip(began, decoded, strict=True):
            started = _epoch_ms(started_at)
            here = _summarise(entries, alive, {}, started).presence.players
            marks = {STARTED: started, **{seat: started for seat in SEATS if not here[seat]}}
            pipe.delete(_away_key(match_id))
            pipe.hset(_away_key(match_id), mapping=marks)
            pipe.expire(_away_key(match_id), KEEP_SECONDS)
            marks_of.append(marks)
        pipe.execute()
    now = _now_ms()
    publish(
        [
            match_message(
                match_id,
                {
                    "type": "match.presence",
                    **_summarise(entries, alive, marks, now).presence.message(),
                },
            )
            for (match_id, _started_at), entries, marks in zip(
                began, decoded, marks_of, strict=True
            )
        ]
    )


def seat_away_ms(match_id: int, seat: int, *, started_at: datetime) -> int | None:
    """How long a seat of an active match has been away (ms), None while one of its sockets is
    open: never counted from before `started_at` (the match row's start), and 0 for a seat
    nobody has seen away yet (its window starts now). For the claim service
    (games/services/endings.py); it writes only a lost `started` field (see the module's
    docstring), the away marks are set by whoever sees a seat go (a socket closing, a hub's
    watch)."""
    redis_client = _sync_client()
    now = _now_ms()
    with redis_client.pipeline(transaction=False) as pipe:
        _queue_started_if_missing(pipe, match_id, now)
        pipe.hgetall(_key(match_id))
        pipe.hgetall(_away_key(match_id))
        _, _, entries, marks = pipe.execute()
    decoded = _decode(entries)
    reading = _summarise(decoded, _alive_now(redis_client, decoded), _marks(marks), now)
    away = reading.presence.away_ms[str(seat)]
    if reading.presence.players[str(seat)]:
        return None
    return max(0, min(away or 0, now - _epoch_ms(started_at)))
