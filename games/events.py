"""Versioned match events, published to the channel layer after commit (Zulip's
send_event_on_commit). Services record events while they hold the match lock; nothing leaves the
process unless the transaction commits.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from config import metrics
from config.wire import json_text
from games.protocol import game_state, match_section

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


@dataclass
class MatchContext:
    """A locked match and its current game, plus the events recorded."""

    match: Any
    game: Any | None
    usernames: dict[int, str]
    ratings: dict[int, int]
    auto_roll: set[int] = field(default_factory=set)  # players who roll automatically
    inactive: set[int] = field(default_factory=set)  # players whose account is deactivated
    events: list[dict[str, Any]] = field(default_factory=list)
    # Move-log rows made by the command, written with its updates (rows.save(new=...)).
    new_rows: list[Any] = field(default_factory=list)
    lobby_changed: bool = False
    # The turn that was open when the match was locked: when another one is open at the end of the
    # command, its deadline gets a Celery task (games/tasks.py) after commit.
    turn_at_start: tuple[int, int] | None = None

    # `state.match` as the clients last got it (set when the match is locked): events carry it
    # only when it changed (docs/protocol.md).
    match_sent: dict[str, Any] | None = None

    def current_match_section(self) -> dict[str, Any]:
        return match_section(self.match, self.game, usernames=self.usernames, ratings=self.ratings)

    def record(self, kind: str, detail: dict[str, Any]) -> None:
        """Bump the version and keep the event with the state as it is now: the game, and the
        match when it changed. The move log is left out: `turn` events carry each new entry."""
        self.match.version += 1
        state: dict[str, Any] = {"game": game_state(self.match, self.game, timezone.now())}
        section = self.current_match_section()
        if section != self.match_sent:
            state["match"] = self.match_sent = section
        self.events.append(
            {"type": "event", "version": self.match.version, "kind": kind, "detail": detail,
             "state": state}
        )  # fmt: skip

    def open_turn(self) -> tuple[int, int] | None:
        game = self.game
        if game is None or game.phase == "over" or self.match.status != "active":
            return None
        return (game.pk, game.turn_number)

    def publish_on_commit(self) -> None:
        events = list(self.events)
        match_id = self.match.pk
        lobby = self.lobby_changed
        if events or lobby:
            transaction.on_commit(lambda: publish(match_id, events, lobby=lobby))
        turn = self.open_turn()
        deadline = self.game.turn_deadline if self.game is not None else None
        if turn is not None and turn != self.turn_at_start and deadline is not None:
            from games.tasks import schedule_deadline

            transaction.on_commit(lambda: schedule_deadline(match_id, *turn, deadline))


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


# A Redis restart or failover takes a second or two; committed events wait for it rather than
# being lost (issue 20's Redis drill: the opponents of a step made during the restart waited for
# the next event to notice the gap).
PUBLISH_RETRY_SECONDS = 30.0
PUBLISH_RETRY_ERRORS = (redis.ConnectionError, redis.TimeoutError, OSError)


async def publish_async(
    match_id: int, events: list[dict[str, Any]], *, lobby: bool = False
) -> None:
    """Publish committed events, retrying while Redis is out of reach (up to
    PUBLISH_RETRY_SECONDS). A repeat is harmless: sockets skip versions they already have."""
    layer = get_channel_layer()
    if events:
        # Serialised once here, not once per receiving socket.
        wire = [{"version": event["version"], "text": json_text(event)} for event in events]
        await _group_send_retrying(
            layer,
            match_group(match_id),
            {"type": "match.events", "match": match_id, "events": wire},
        )
    if lobby:
        await _group_send_retrying(layer, LOBBY_GROUP, {"type": "lobby.changed"})


async def _group_send_retrying(layer, group: str, message: dict[str, Any]) -> None:
    loop = asyncio.get_running_loop()
    give_up_at = loop.time() + PUBLISH_RETRY_SECONDS
    delay = 0.05
    while True:
        try:
            await layer.group_send(group, message)
            return
        except PUBLISH_RETRY_ERRORS:
            if loop.time() + delay > give_up_at:
                raise
            metrics.PUBLISH_RETRIES.inc()
            await asyncio.sleep(delay)
            delay = min(1.0, delay * 2)
