"""Versioned match events, published to the channel layer after commit (Zulip's
send_event_on_commit). Services record events while they hold the match lock; nothing leaves the
process unless the transaction commits.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import orjson
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from config.redis_client import client
from config.wire import json_text
from realtime.publisher import PUBLISH_RETRY_ERRORS, retry_delays

LOBBY_GROUP = "lobby"


def match_channel(match_id: int) -> str:
    """The Redis pub/sub channel of a match's events and presence (games/hub.py subscribes)."""
    return f"{settings.REDIS_PREFIX}:match:{match_id}"


def match_of_channel(channel: bytes | str) -> int:
    text = channel.decode() if isinstance(channel, bytes) else channel
    return int(text.rsplit(":", 1)[1])


# A consumer's worker thread collects what its service call publishes and sends it from the event
# loop afterwards, so the thread is not held while Redis answers (bench/live_load.py showed that
# wait queueing every other socket's commands behind it).
_deferred = threading.local()


@contextmanager
def deferred_publishing() -> Iterator[list[tuple[int, list[dict[str, Any]], bool]]]:
    """Within this block, `publish` (run by on_commit) appends to the yielded list instead."""
    sink: list[tuple[int, list[dict[str, Any]], bool]] = []
    _deferred.sink = sink
    try:
        yield sink
    finally:
        _deferred.sink = None


def publish(match_id: int, events: list[dict[str, Any]], *, lobby: bool = False) -> None:
    """Send committed events to everyone watching the match (and tell the lobby)."""
    sink = getattr(_deferred, "sink", None)
    if sink is not None:
        sink.append((match_id, events, lobby))
        return
    # Outside an event loop (Celery tasks, page views): a plain PUBLISH from this thread.
    if events:
        _publish_from_thread(match_id, _events_message(match_id, events))
    if lobby:
        async_to_sync(get_channel_layer().group_send)(LOBBY_GROUP, {"type": "lobby.changed"})


# A Redis restart waits rather than losing committed events (realtime/publisher.py).
_retry_delays = retry_delays


async def publish_async(
    match_id: int, events: list[dict[str, Any]], *, lobby: bool = False
) -> None:
    """Send committed events from the event loop, waiting out a Redis restart (see above)."""
    if events:
        message = _events_message(match_id, events)
        for delay in _retry_delays():
            try:
                await client().publish(match_channel(match_id), message)
                break
            except PUBLISH_RETRY_ERRORS:
                if delay is None:
                    raise
                await asyncio.sleep(delay)
    if lobby:
        await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.changed"})


async def publish_match_message(match_id: int, message: dict[str, Any]) -> None:
    """Any other message for a match's sockets (presence), through the same channel."""
    await client().publish(match_channel(match_id), orjson.dumps({**message, "match": match_id}))


def publish_match_message_now(match_id: int, message: dict[str, Any]) -> None:
    """`publish_match_message` from a thread without an event loop (services' on_commit: the
    chat), with the same retries as `publish`."""
    _publish_from_thread(match_id, orjson.dumps({**message, "match": match_id}))


def _publish_from_thread(match_id: int, data: bytes) -> None:
    """PUBLISH on the match's channel, retried while Redis is briefly away."""
    for delay in _retry_delays():
        try:
            _sync_client().publish(match_channel(match_id), data)
            return
        except PUBLISH_RETRY_ERRORS:
            if delay is None:
                raise
            time.sleep(delay)


def _events_message(match_id: int, events: list[dict[str, Any]]) -> bytes:
    # Each event is serialised once here, not once per receiving socket.
    wire = [{"version": event["version"], "text": json_text(event)} for event in events]
    return orjson.dumps({"type": "match.events", "match": match_id, "events": wire})


@cache
def _sync_client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)
