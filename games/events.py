"""The messages a match sends to sockets, built once for every receiver: its versioned events
(recorded while the match is locked, sent after commit by games/effects.py), presence and chat on
the match's Redis channel (games/hub.py subscribes), and the lobby's "something changed".
Everything is sent through the process's publisher (realtime/publisher.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import orjson
from django.conf import settings

from config.wire import json_text
from realtime.publisher import ChannelMessage, GroupMessage

LOBBY_GROUP = "lobby"


def match_channel(match_id: int) -> str:
    """The Redis pub/sub channel of a match's events and presence (games/hub.py subscribes)."""
    return f"{settings.REDIS_PREFIX}:match:{match_id}"


def match_of_channel(channel: bytes | str) -> int:
    text = channel.decode() if isinstance(channel, bytes) else channel
    return int(text.rsplit(":", 1)[1])


# The match and the list that `noting_events` gives its caller, while a socket's command runs.
_noted: ContextVar[tuple[int, list[dict[str, Any]]] | None] = ContextVar("noted", default=None)


@contextmanager
def noting_events(match_id: int) -> Iterator[list[dict[str, Any]]]:
    """The events committed for `match_id` while the block runs, as they are published (each
    `{"version": …, "text": …}`): the sender's ack carries them (docs/protocol.md "ack"), so the
    sender's socket need not wait for its own copy through Redis. They are published as ever."""
    noted: list[dict[str, Any]] = []
    token = _noted.set((match_id, noted))
    try:
        yield noted
    finally:
        _noted.reset(token)


def match_events(match_id: int, events: list[dict[str, Any]]) -> ChannelMessage:
    """Committed events, in version order (docs/protocol.md `event`)."""
    # Each event is serialised once here, not once per receiving socket.
    wire = [{"version": event["version"], "text": json_text(event)} for event in events]
    if (noting := _noted.get()) is not None and noting[0] == match_id:
        noting[1].extend(wire)
    return ChannelMessage(
        match_channel(match_id),
        orjson.dumps({"type": "match.events", "match": match_id, "events": wire}),
    )


def match_message(match_id: int, message: dict[str, Any]) -> ChannelMessage:
    """Any other message for a match's sockets (presence, chat), through the same channel."""
    return ChannelMessage(match_channel(match_id), orjson.dumps({**message, "match": match_id}))


def lobby_changed() -> GroupMessage:
    """The lobby's sockets read the open challenges and live matches again."""
    return GroupMessage(LOBBY_GROUP, {"type": "lobby.changed"})
