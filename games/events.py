"""The messages a match sends to sockets, built once for every receiver: its versioned events
(recorded while the match is locked, sent after commit by games/effects.py), presence and chat on
the match's Redis channel (games/hub.py subscribes), and the lobby's "something changed".
Everything is sent through the process's publisher (realtime/publisher.py).
"""

from __future__ import annotations

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


def match_events(match_id: int, events: list[dict[str, Any]]) -> ChannelMessage:
    """Committed events, in version order (docs/protocol.md `event`)."""
    # Each event is serialised once here, not once per receiving socket.
    wire = [{"version": event["version"], "text": json_text(event)} for event in events]
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
