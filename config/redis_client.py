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
import threading
import weakref
from functools import cache
from typing import Any

import redis
import redis.asyncio as redis_async
from django.conf import settings

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, redis_async.Redis] = (
    weakref.WeakKeyDictionary()
)


def client() -> redis_async.Redis:
    loop = asyncio.get_running_loop()
    if loop not in _clients:
        _clients[loop] = redis_async.Redis.from_url(settings.REDIS_URL, max_connections=200)
    return _clients[loop]


@cache
def sync_client() -> redis.Redis:
    """The process's blocking client, for services and views (thread-safe; one connection pool)."""
    return redis.Redis.from_url(settings.REDIS_URL)


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
