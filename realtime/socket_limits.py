"""Caps on open sockets per user and per client address, across every Daphne process.

One Redis sorted set per user and per address: member = the socket's channel name, score = when
the entry lapses. Each process pushes the lapse time of its live sockets forward in one pipeline
per period; a crashed process's entries lapse by themselves after LAPSE_SECONDS, so its sockets
stop counting without anyone cleaning up (the same idea as games/presence.py).

Without a cap, one client could open sockets without end (every one a coroutine, a
channel and presence entries in Daphne's memory).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref

from django.conf import settings
from django.utils.translation import gettext as _

from config.client_address import address_bucket
from config.redis_client import client, sync_client

log = logging.getLogger(__name__)

REFRESH_SECONDS = 30
LAPSE_SECONDS = 75


def _keys(user_id: int | None, address: str | None) -> list[tuple[str, int]]:
    prefix = f"{settings.REDIS_PREFIX}:sockets"
    keys = []
    if user_id is not None and settings.SOCKETS_PER_USER > 0:
        keys.append((f"{prefix}:user:{user_id}", settings.SOCKETS_PER_USER))
    if address and settings.SOCKETS_PER_ADDRESS > 0:
        # An IPv6 client counts per /64 (config/client_address.py).
        keys.append((f"{prefix}:address:{address_bucket(address)}", settings.SOCKETS_PER_ADDRESS))
    return keys


class _Registry:
    """This event loop's counted sockets (channel name → keys), refreshed periodically."""

    def __init__(self) -> None:
        self.sockets: dict[str, list[str]] = {}
        self.users: dict[str, int] = {}  # channel name -> signed-in user id
        self.task: asyncio.Task | None = None

    def add(self, channel_name: str, keys: list[str], user_id: int | None = None) -> None:
        self.sockets[channel_name] = keys
        if user_id is not None:
            self.users[channel_name] = user_id
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._refresh_forever())

    async def _refresh_forever(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while self.sockets:
                await asyncio.sleep(REFRESH_SECONDS)
                try:
                    await self.refresh()
                except Exception:  # Redis away for a moment: the next period tries again
                    log.exception("socket limit refresh failed")

    async def refresh(self) -> None:
        lapse = time.time() + LAPSE_SECONDS
        async with client().pipeline(transaction=False) as pipe:
            for channel_name, keys in tuple(self.sockets.items()):
                for key in keys:
                    pipe.zadd(key, {channel_name: lapse}, xx=True)
                    pipe.expire(key, LAPSE_SECONDS)
            online = {str(user_id): lapse for user_id in set(self.users.values())}
            if online:
                pipe.zadd(online_key(), online)
            await pipe.execute()


_registries: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Registry] = (
    weakref.WeakKeyDictionary()
)


def registry() -> _Registry:
    loop = asyncio.get_running_loop()
    if loop not in _registries:
        _registries[loop] = _Registry()
    return _registries[loop]


async def acquire(channel_name: str, *, user_id: int | None, address: str | None) -> str | None:
    """Count this socket in; None when it may open, else the refusal text (nothing is kept)."""
    keys = _keys(user_id, address)
    if not keys:
        return None
    now = time.time()
    async with client().pipeline(transaction=True) as pipe:
        for key, _limit in keys:
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, {channel_name: now + LAPSE_SECONDS})
            pipe.expire(key, LAPSE_SECONDS)
            pipe.zcard(key)
        results = await pipe.execute()
    counts = results[3::4]
    if any(count > limit for count, (_key, limit) in zip(counts, keys, strict=True)):
        # Counted in with the others and then out again: of two sockets racing for the last
        # place both may be refused, never both let in.
        async with client().pipeline(transaction=False) as pipe:
            for key, _limit in keys:
                pipe.zrem(key, channel_name)
            await pipe.execute()
        return _("Too many open connections; close some tabs and try again.")
    registry().add(channel_name, [key for key, _limit in keys], user_id)
    if user_id is not None:
        await client().zadd(online_key(), {str(user_id): now + LAPSE_SECONDS})
    return None


# A lapsed entry of the online set stays this long: its score, less LAPSE_SECONDS, is when the
# user was last seen (the Friends page, friends/selectors.py), with no write per request.
LAST_SEEN_KEPT_SECONDS = 30 * 24 * 3600


def online_key() -> str:
    """Signed-in users with an open socket, scored by when that lapses (the Play page's
    "online" figure): those scored after now are online, the others were seen last at their
    score less LAPSE_SECONDS (kept LAST_SEEN_KEPT_SECONDS)."""
    return f"{settings.REDIS_PREFIX}:sockets:online"


async def online_users() -> int:
    now = time.time()
    async with client().pipeline(transaction=False) as pipe:
        pipe.zremrangebyscore(online_key(), "-inf", now - LAST_SEEN_KEPT_SECONDS)
        pipe.zcount(online_key(), f"({now}", "+inf")
        return (await pipe.execute())[1]


def lapse_times(user_ids: list[int]) -> dict[int, float]:
    """When each user's socket entry lapses (epoch seconds), for those seen within
    LAST_SEEN_KEPT_SECONDS: after now, they are online. One round trip (ZMSCORE) for any
    number of users, whatever the size of the site."""
    if not user_ids:
        return {}
    scores = sync_client().zmscore(online_key(), [str(user_id) for user_id in user_ids])
    return {
        user_id: score for user_id, score in zip(user_ids, scores, strict=True) if score is not None
    }


async def release(channel_name: str) -> None:
    registry().users.pop(channel_name, None)
    keys = registry().sockets.pop(channel_name, None)
    if keys:
        async with client().pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(key, channel_name)
            await pipe.execute()
