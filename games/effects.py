"""What a match command did that the world outside its transaction hears of, and the one place
that makes it happen after commit.

A service describes it in an `Effects` value (games/services/follow_up.py builds the one of a
match command): the versioned events per match, whether the lobby's lists changed, the Celery
work to schedule (a turn's deadline, a bot's next act: games/schedule.py) and notices to users.
`on_commit` registers one callback, `AfterCommit`, that hands the messages to the process's
publisher (realtime/publisher.py: in Daphne it returns at once, the event loop sends) and then
schedules the tasks. Nothing leaves the process unless the transaction commits (README, "How code
is shaped here").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from django.db import transaction

from games import schedule
from games.events import lobby_changed, match_events
from realtime.groups import user_message
from realtime.publisher import Message, publish


class Deadline(NamedTuple):
    """Enforce a timed turn's deadline at `deadline` (games/services/clocks.py)."""

    match_id: int
    game_id: int
    turn_number: int
    deadline: datetime


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
    bot_turns: list[BotTurn] = field(default_factory=list)
    notices: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (user id, payload)

    def __bool__(self) -> bool:
        return bool(
            any(self.events.values()) or self.lobby_changed or self.deadlines or self.bot_turns
            or self.notices
        )  # fmt: skip

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
    """Publish first (the players see the new state), then schedule the Celery work."""
    publish(effects.messages())
    for deadline in effects.deadlines:
        schedule.deadline(*deadline)
    for turn in effects.bot_turns:
        schedule.bot(*turn)
