"""Versioned match events, published to the channel layer after commit (Zulip's
send_event_on_commit). Services record events while they hold the match lock
(games/services/context.py); nothing leaves the process unless the transaction commits.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from config.wire import json_text

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


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
    async_to_sync(publish_async)(match_id, events, lobby=lobby)


async def publish_async(
    match_id: int, events: list[dict[str, Any]], *, lobby: bool = False
) -> None:
    layer = get_channel_layer()
    if events:
        # Serialised once here, not once per receiving socket.
        wire = [{"version": event["version"], "text": json_text(event)} for event in events]
        await layer.group_send(
            match_group(match_id), {"type": "match.events", "match": match_id, "events": wire}
        )
    if lobby:
        await layer.group_send(LOBBY_GROUP, {"type": "lobby.changed"})
