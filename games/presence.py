"""Who is at a match: players' sockets and spectators, in Redis so every Daphne process agrees.

One hash per match: socket channel name → "<seat>|<timestamp>" ("s" for a spectator). Each process
refreshes its sockets' entries while they live (games/hub.py, one pipeline per period); entries
older than STALE_SECONDS (a crashed process) are ignored and cleaned up.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.conf import settings

from config.redis_client import client

REFRESH_SECONDS = 30
STALE_SECONDS = 75
KEEP_SECONDS = 24 * 3600  # a match's hash outlives a crashed process's last refresh
SPECTATOR = "s"


def _key(match_id: int) -> str:
    return f"{settings.REDIS_PREFIX}:presence:{match_id}"


def _entry(seat: int | None) -> str:
    return f"{SPECTATOR if seat is None else seat}|{time.time():.0f}"


async def presence_join(match_id: int, channel_name: str, seat: int | None) -> None:
    await presence_refresh([(match_id, channel_name, seat)])


async def presence_refresh(sockets: Iterable[tuple[int, str, int | None]]) -> None:
    """Mark each (match id, socket channel name, seat) as here now, in one round trip."""
    async with client().pipeline(transaction=False) as pipe:
        keys = set()
        for match_id, channel_name, seat in sockets:
            keys.add(_key(match_id))
            pipe.hset(_key(match_id), channel_name, _entry(seat))
        for key in keys:
            pipe.expire(key, KEEP_SECONDS)
        if keys:
            await pipe.execute()


async def presence_leave(match_id: int, channel_name: str) -> None:
    await client().hdel(_key(match_id), channel_name)


def _summarise(entries: dict[bytes, bytes], now: float) -> tuple[dict[str, bool], int, list[bytes]]:
    players = {"0": False, "1": False}
    spectators = 0
    stale: list[bytes] = []
    for channel, value in entries.items():
        who, _, stamp = value.decode().partition("|")
        if now - float(stamp or 0) > STALE_SECONDS:
            stale.append(channel)
        elif who == SPECTATOR:
            spectators += 1
        else:
            players[who] = True
    return players, spectators, stale


async def presence_of(match_id: int) -> tuple[dict[str, bool], int]:
    """({"0": online?, "1": online?}, number of spectators)."""
    entries = await client().hgetall(_key(match_id))
    players, spectators, stale = _summarise(entries, time.time())
    if stale:
        await client().hdel(_key(match_id), *stale)
    return players, spectators


async def spectator_counts(match_ids: list[int]) -> dict[int, int]:
    if not match_ids:
        return {}
    async with client().pipeline(transaction=False) as pipe:
        for match_id in match_ids:
            pipe.hgetall(_key(match_id))
        results = await pipe.execute()
    now = time.time()
    return {
        match_id: _summarise(entries, now)[1]
        for match_id, entries in zip(match_ids, results, strict=True)
    }
