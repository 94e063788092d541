"""Django's cache shares one Redis connection pool per process (config/redis_client.py).

`caches` is per async context: every socket of a Daphne process has a cache object of its own.
Each used to open its own pool and Redis connection, held as long as the context lived
(bench/soak.py found them).
"""

from __future__ import annotations

import asyncio
import contextvars
from urllib.parse import urlsplit

import psutil
from django.conf import settings
from django.core.cache import cache

CONTEXTS = 10


def redis_connections() -> int:
    port = urlsplit(settings.REDIS_URL).port or 6379
    return sum(
        1
        for connection in psutil.Process().net_connections(kind="tcp")
        if connection.raddr and connection.raddr.port == port
        and connection.status == psutil.CONN_ESTABLISHED
    )  # fmt: skip


async def test_cache_objects_of_many_contexts_share_one_redis_connection_pool():
    await cache.aset("probe", 1)  # this context's own pool and connection, if any, exist now
    before = redis_connections()
    used, release = asyncio.Semaphore(0), asyncio.Event()

    async def socket_context() -> None:
        assert await cache.aget("probe") == 1
        used.release()
        await release.wait()  # the context, and whatever its cache holds, stays alive

    tasks = [
        asyncio.get_running_loop().create_task(socket_context(), context=contextvars.Context())
        for _ in range(CONTEXTS)
    ]
    for _ in range(CONTEXTS):
        await used.acquire()
    during = redis_connections()
    release.set()
    await asyncio.gather(*tasks)
    assert during - before <= 1, f"{during - before} Redis connections for {CONTEXTS} contexts"
