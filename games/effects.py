"""What a match command did that the world outside its transaction hears of, and the one place
that makes it happen after commit.

A service describes it in an `Effects` value (games/services/follow_up.py builds the one of a
match command): the versioned events per match, whether the lobby's lists changed, the Celery
work to schedule (a turn's deadline, a bot's next act: games/schedule.py), notices to users, the
reconnect windows of a match that began (games/presence.py) and the `match_finished` hook of one
that ended (games/hooks.py). `on_commit` registers one callback, `AfterCommit`, that hands the
messages to the process's publisher (realtime/publisher.py: in Daphne it returns at once, the event
loop sends), then schedules the tasks, then tells presence and the apps above. Nothing leaves the
process unless the transaction commits (docs/architecture.md, "How code is shaped here").
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from django.db import transaction

from games import hooks, presence, schedule
from games.events import lobby_changed, match_events
from realtime.groups import user_message
from realtime.publisher import Message, publish

log = logging.getLogger(__name__)


class Deadline(NamedTuple):
    """Enforce a timed turn's deadline at `deadline` (games/services/clocks.py)."""

    match_id: int
    game_id: int
    turn_number: int
    deadline: datetime


class TurnDue(NamedTuple):
    """A correspondence turn waits for `user_id` until `deadline` (games/hooks.py); its deadline
    is the beat sweep's, not a task of its own (games/tasks.py)."""

    match_id: int
    user_id: int
    deadline: datetime


class Began(NamedTuple):
    """The match began at `started_at`: its seats' reconnect windows start (games/presence.py)."""

    match_id: int
    started_at: datetime


class Finished(NamedTuple):
    """The match ended with a result: the apps above hear of it (games/hooks.py)."""

    match_id: int
    rated: bool


class BotTurn(NamedTuple):
    """The bot acts in the match at `version` after `pause` seconds (games/services/bots.py)."""

    match_id: int
    version: int
    pause: float


@dataclass
class Effects:
    events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # by match, in order
    lobby_changed: bool = False
    deadlines: list[Deadline] = field(default_factory=list)
    turns_due: list[TurnDue] = field(default_factory=list)
    bot_turns: list[BotTurn] = field(default_factory=list)
    notices: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (user id, payload)
    began: list[Began] = field(default_factory=list)
    finished: list[Finished] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(
            any(self.events.values()) or self.lobby_changed or self.deadlines or self.bot_turns
            or self.notices or self.began or self.finished or self.turns_due
        )  # fmt: skip

    @classmethod
    def combined(cls, parts: Sequence[Effects]) -> Effects:
        """What several commands of one transaction left, as one value (their matches differ:
        the commands of a pairing wave, games/services/starts.py), in their order."""
        if len(parts) == 1:
            return parts[0]
        whole = cls()
        for part in parts:
            for match_id, events in part.events.items():
                whole.events.setdefault(match_id, []).extend(events)
            whole.lobby_changed = whole.lobby_changed or part.lobby_changed
            whole.deadlines += part.deadlines
            whole.turns_due += part.turns_due
            whole.bot_turns += part.bot_turns
            whole.notices += part.notices
            whole.began += part.began
            whole.finished += part.finished
        return whole

    def messages(self) -> list[Message]:
        """What goes to sockets: each match's events in one message, then the lobby, then the
        users' notices (docs/protocol.md)."""
        messages: list[Message] = [
            match_events(match_id, events) for match_id, events in self.events.items() if events
        ]
        if self.lobby_changed:
            messages.append(lobby_changed())
        messages += [
            user_message(user_id, {"type": "user.notify", "payload": payload})
            for user_id, payload in self.notices
        ]
        return messages


@dataclass(frozen=True)
class AfterCommit:
    """The on_commit callback of one Effects value (tests find what a command left by it)."""

    effects: Effects

    def __call__(self) -> None:
        perform(self.effects)


def on_commit(effects: Effects) -> None:
    """Perform `effects` once the current transaction commits (nothing when it rolls back)."""
    if effects:
        transaction.on_commit(AfterCommit(effects))


def perform(effects: Effects) -> None:
    """Publish first (the players see the new state), then schedule the Celery work, then start
    the reconnect windows and tell the apps above of an ending and of correspondence turns."""
    publish(effects.messages())
    if effects.deadlines:
        schedule.deadlines(effects.deadlines)
    for turn in effects.bot_turns:
        schedule.bot(*turn)
    try:
        presence.presence_matches_started(effects.began)
    except Exception:
        # Redis away: the window of a seat with no socket starts at its first presence refresh
        # instead (games/presence.py); the matches have started whatever happens here.
        began = [match_id for match_id, _started_at in effects.began]
        log.exception("reconnect windows of matches %s not started", began)
    for finished in effects.finished:
        hooks.announce_match_finished(*finished)
    for due in effects.turns_due:
        hooks.announce_correspondence(
            hooks.correspondence_turn_due, "correspondence_turn_due",
            user_id=due.user_id, match_id=due.match_id, deadline=due.deadline,
        )  # fmt: skip
