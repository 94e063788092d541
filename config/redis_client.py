"""The asyncio Redis client of the running event loop (presence, socket limits).

One client per event loop: an asyncio connection belongs to the loop that opened it (Daphne has
one loop; tests get a new loop per test). channels-redis keeps its pools the same way.
"""

from __future__ import annotations

import asyncio
import weakref

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
