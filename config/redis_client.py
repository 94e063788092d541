"""Redis clients: the asyncio one of the running event loop (presence, socket limits), and the
one connection pool of the process behind Django's cache.

One asyncio client per event loop: an asyncio connection belongs to the loop that opened it
(Daphne has one loop; tests get a new loop per test). channels-redis keeps its pools the same way.

`SharedConnectionPool` (CACHES' `pool_class`): Django's `caches` is per async context, so every
socket of a Daphne process made a RedisCache of its own the first time its session was read (the
cached_db session engine), each with its own connection pool and an open Redis connection. A
context outlives its socket where a long-lived loop object captured it (the reader of a pooled
asyncio Redis connection keeps the context of the socket that opened it), and with it that pool
and connection (bench/soak.py measured 12 more RedisCache pools and Redis connections per
1,000 socket churns in one Daphne). With one pool per process and server, a cache object is a
few small objects and no connection.
"""

from __future__ import annotations

import asyncio
import binascii
import threading
import weakref
from functools import cache
from typing import Any

import redis
import redis.asyncio as redis_async
from django.conf import settings

# By event loop, then by server URL.
_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, redis_async.Redis]] = (
    weakref.WeakKeyDictionary()
)


def client_of(url: str) -> redis_async.Redis:
    """The running loop's client of the server at `url`."""
    loop = asyncio.get_running_loop()
    clients = _clients.get(loop)
    if clients is None:
        clients = _clients[loop] = {}
    found = clients.get(url)
    if found is None:
        found = clients[url] = redis_async.Redis.from_url(url, max_connections=200)
    return found


def client() -> redis_async.Redis:
    """The running loop's client of REDIS_URL (presence, socket limits, pools)."""
    return client_of(settings.REDIS_URL)


@cache
def sync_client_of(url: str) -> redis.Redis:
    """The process's blocking client of `url` (thread-safe; one connection pool)."""
    return redis.Redis.from_url(url)


def sync_client() -> redis.Redis:
    """The process's blocking client of REDIS_URL, for services and views."""
    return sync_client_of(settings.REDIS_URL)


def channel_server(channel: str) -> str:
    """The URL of the server that carries pub/sub `channel` (see above)."""
    servers = settings.REDIS_CHANNEL_URLS
    return servers[0] if len(servers) == 1 else servers[server_index(channel, len(servers))]


def server_index(channel: str, count: int) -> int:
    """Which of `count` servers carries `channel`."""
    ring = binascii.crc32(channel.encode()) & 0xFFF
    return int(ring / (4096 / count))


class SharedConnectionPool(redis.ConnectionPool):
    """`from_url` hands out one pool per URL and options in this process (thread-safe; redis-py
    pools reset themselves in a forked child)."""

    _shared: dict[tuple[str, str], redis.ConnectionPool] = {}
    _lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **options: Any) -> redis.ConnectionPool:
        key = (url, repr(sorted(options.items())))
        with cls._lock:
            pool = cls._shared.get(key)
            if pool is None:
                pool = cls._shared[key] = super().from_url(url, **options)
            return pool
