"""The match socket's commands (docs/protocol.md "Client → server"), each a typed frozen
dataclass of its own wire fields, and a step's wire form.

`MATCH_COMMANDS` is the match socket's registry (realtime/commands.py): the players' commands and
the socket's own are registered with their handlers by games/consumers.py, chat's by chat's own
code. Its parser refuses anything malformed with a `ProtocolError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from django.utils.translation import gettext as _

from games.fairness import is_client_seed
from nardy import Step
from realtime.commands import Command, CommandRegistry, ProtocolError, wire

WireStep = list[int]

MATCH_COMMANDS = CommandRegistry("/ws/matches/<id>/")


def version_from_wire(value: object) -> int:
    if type(value) is not int or value < 0:
        raise ProtocolError("bad_field", _("version must be a non-negative integer."))
    return value


def client_seed_from_wire(value: object) -> str:
    """The sender's client seed (games/fairness)."""
    if not is_client_seed(value):
        raise ProtocolError(
            "bad_field",
            _("client_seed must be 1 to 64 letters (a–z, A–Z), digits, “_” or “-”."),
        )
    return value  # type: ignore[return-value]


def step_from_wire(value: object) -> Step:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or any(type(number) is not int for number in value)
    ):
        raise ProtocolError("bad_field", _("step must be [source, destination, die] (integers)."))
    source, destination, die = value
    if not (1 <= source <= 24 and 0 <= destination <= 24 and 1 <= die <= 6):
        raise ProtocolError(
            "bad_field", _("step out of range: source 1–24, destination 0–24, die 1–6.")
        )
    return Step(source, destination, die)


def step_to_wire(step: Step) -> WireStep:
    return [step.source, step.destination, step.die]


def steps_from_json(stored: list[list[int]]) -> tuple[Step, ...]:
    return tuple(Step(*step) for step in stored)


@dataclass(frozen=True, kw_only=True)
class Versioned(Command):
    """A command on the game's state: it names the version it was made against."""

    version: int = wire(version_from_wire)


@dataclass(frozen=True, kw_only=True)
class Roll(Versioned):
    type: ClassVar[str] = "roll"
    answered_by_events: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True)
class PlayStep(Versioned):
    type: ClassVar[str] = "step"
    answered_by_events: ClassVar[bool] = True
    step: Step = wire(step_from_wire)


@dataclass(frozen=True, kw_only=True)
class Undo(Versioned):
    type: ClassVar[str] = "undo"
    answered_by_events: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True)
class Confirm(Versioned):
    type: ClassVar[str] = "confirm"
    answered_by_events: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True)
class Double(Versioned):
    type: ClassVar[str] = "double"


@dataclass(frozen=True, kw_only=True)
class Take(Versioned):
    type: ClassVar[str] = "take"


@dataclass(frozen=True, kw_only=True)
class Drop(Versioned):
    type: ClassVar[str] = "drop"


@dataclass(frozen=True, kw_only=True)
class Resign(Command):
    type: ClassVar[str] = "resign"


@dataclass(frozen=True, kw_only=True)
class Leave(Command):
    type: ClassVar[str] = "leave"


@dataclass(frozen=True, kw_only=True)
class Claim(Command):
    type: ClassVar[str] = "claim"


@dataclass(frozen=True, kw_only=True)
class Abort(Command):
    type: ClassVar[str] = "abort"


@dataclass(frozen=True, kw_only=True)
class Rematch(Command):
    type: ClassVar[str] = "rematch"
    client_seed: str | None = wire(client_seed_from_wire, optional=True)


@dataclass(frozen=True, kw_only=True)
class RematchDecline(Command):
    type: ClassVar[str] = "rematch_decline"


@dataclass(frozen=True, kw_only=True)
class ClientSeed(Command):
    type: ClassVar[str] = "client_seed"
    client_seed: str = wire(client_seed_from_wire)


@dataclass(frozen=True, kw_only=True)
class Snapshot(Command):
    type: ClassVar[str] = "snapshot"


@dataclass(frozen=True, kw_only=True)
class Ping(Command):
    type: ClassVar[str] = "ping"
