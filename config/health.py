"""Liveness of everything the site needs, each probed for real (used by /healthz).

The probes run at most once per HEALTHZ_CACHE_SECONDS in a process, whoever asks and however
often: /healthz is public, and each run costs a database query, Redis round trips and a Celery
broadcast, so an unlimited probe would be a cheap way to load the site. Nothing a probe does
outlives it: the channel layer is probed by a publish, which subscribes nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

PROBE_TIMEOUT_SECONDS = 2.0
# The ping returns at the first worker's answer; the bound only applies when none answers (0.5 s
# failed the check on a loaded 2-core machine with a healthy worker).
CELERY_PING_SECONDS = 1.5
HEALTH_GROUP = "healthz"


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("unexpected answer to SELECT 1")


def check_redis() -> None:
    """REDIS_URL and every other server of the sockets' messages (docs/scaling.md "Redis"): a
    match whose channel lives on a server that is down hears nothing. Named by position, since a
    URL may carry a password."""
    servers = list(dict.fromkeys([settings.REDIS_URL, *settings.REDIS_CHANNEL_URLS]))
    for number, url in enumerate(servers, start=1):
        client = redis.Redis.from_url(url, socket_timeout=PROBE_TIMEOUT_SECONDS)
        try:
            client.ping()
        except redis.RedisError as error:
            raise RuntimeError(f"server {number} of {len(servers)}: {error}") from None
        finally:
            client.close()


def check_channel_layer() -> None:
    # A group message to a group nobody joins: the layer's Redis connection publishes it, and
    # no channel is subscribed (a round trip through a new channel left one subscribed per call).
    async_to_sync(get_channel_layer().group_send)(HEALTH_GROUP, {"type": "healthz.ping"})


def check_celery() -> None:
    from config.celery import app

    replies = app.control.ping(timeout=CELERY_PING_SECONDS, limit=1)
    if not replies:
        raise RuntimeError("no Celery worker answered a ping")


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "redis": check_redis,
    "channel_layer": check_channel_layer,
    "celery": check_celery,
}


_cache_lock = threading.Lock()
_cached: tuple[float, dict[str, str]] | None = None


def cached_checks() -> dict[str, str]:
    """`run_checks()`, run again only once the last result is HEALTHZ_CACHE_SECONDS old; callers
    meanwhile wait for the one run in progress instead of starting their own."""
    global _cached
    with _cache_lock:
        if _cached is None or time.monotonic() - _cached[0] >= settings.HEALTHZ_CACHE_SECONDS:
            _cached = (time.monotonic(), run_checks())
        return _cached[1]


def run_checks() -> dict[str, str]:
    """Name → "ok" or the error text; every check runs even when an earlier one fails."""
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as error:  # noqa: BLE001 - any failure is the answer we report
            results[name] = f"error: {error.__class__.__name__}: {error}"[:300]
        else:
            results[name] = "ok"
    return results
