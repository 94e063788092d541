"""Liveness of everything the site needs, each probed for real (used by /healthz)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

PROBE_TIMEOUT_SECONDS = 2.0


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("unexpected answer to SELECT 1")


def check_redis() -> None:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=PROBE_TIMEOUT_SECONDS)
    try:
        client.ping()
    finally:
        client.close()


def check_channel_layer() -> None:
    async def round_trip() -> None:
        layer = get_channel_layer()
        channel = await layer.new_channel(prefix="healthz.")
        await layer.send(channel, {"type": "healthz.ping"})
        message = await asyncio.wait_for(layer.receive(channel), PROBE_TIMEOUT_SECONDS)
        if message.get("type") != "healthz.ping":
            raise RuntimeError("channel layer returned another message")

    async_to_sync(round_trip)()


def check_celery() -> None:
    from config.celery import app

    replies = app.control.ping(timeout=PROBE_TIMEOUT_SECONDS / 2)
    if not replies:
        raise RuntimeError("no Celery worker answered a ping")


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "redis": check_redis,
    "channel_layer": check_channel_layer,
    "celery": check_celery,
}


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
