"""A match's Redis channel read as a hub reads it (games/hub.py): what the services published on
it, in order. Services publish blocking where no event loop is attached (realtime/publisher.py),
so everything a call published is on the channel when it returns."""

from __future__ import annotations

import secrets
from typing import Any

import orjson

from config.redis_client import channel_server, sync_client_of
from games.events import match_channel


class MatchChannel:
    def __init__(self, match_id: int) -> None:
        channel = match_channel(match_id)
        self.pubsub = sync_client_of(channel_server(channel)).pubsub()
        self.pubsub.subscribe(channel)
        self.messages()  # the subscription is confirmed before anything is published

    def messages(self) -> list[dict[str, Any]]:
        """Everything published on the channel since the last call. A PING ends it: Redis answers
        it after the messages it had queued for this connection before."""
        end = secrets.token_hex(4)
        self.pubsub.ping(end)
        found = []
        for _ in range(10_000):
            message = self.pubsub.get_message(timeout=5)
            assert message is not None, "Redis did not answer the PING"
            if message["type"] == "pong" and message["data"] == end.encode():
                return found
            if message["type"] == "message":
                found.append(orjson.loads(message["data"]))
        raise AssertionError("no end to the channel's messages")

    def events(self) -> list[dict[str, Any]]:
        """The versioned events among them, as sockets get them (docs/protocol.md `event`)."""
        return [
            orjson.loads(event["text"])
            for message in self.messages()
            if message["type"] == "match.events"
            for event in message["events"]
        ]

    def close(self) -> None:
        self.pubsub.close()
