"""Client frames into typed commands, refusing anything malformed with a `ProtocolError`, and a
step's wire form (docs/protocol.md "Commands")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from config.wire import valid_id
from games.fairness import is_client_seed
from games.rules import (
    Step,
)

COMMAND_TYPES = frozenset(
    {
        "roll", "step", "undo", "double", "take", "drop", "resign", "leave", "claim", "abort",
        "rematch", "rematch_decline", "client_seed", "snapshot", "ping", "chat", "chat_mute",
    }
)  # fmt: skip
# Commands that carry the sender's client seed (games/fairness): required, optional.
SEEDED_COMMANDS = {"client_seed": True, "rematch": False}
VERSIONED_COMMANDS = frozenset({"roll", "step", "undo", "double", "take", "drop"})

WireStep = list[int]


class ProtocolError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Command:
    type: str
    id: str | int | None = None
    version: int | None = None
    step: Step | None = None
    text: str | None = None  # chat: plain text, checked by chat/services.py
    phrase: str | None = None  # chat: a quick phrase's key
    mute: bool | None = None  # chat_mute
    client_seed: str | None = None


def parse_command(message: dict[str, Any]) -> Command:
    """A typed command from a decoded JSON object, or ProtocolError naming what is wrong."""
    kind = message.get("type")
    if kind not in COMMAND_TYPES:
        raise ProtocolError("unknown_type", _("Unknown message type %(type)r.") % {"type": kind})
    command_id = message.get("id")
    if command_id is not None and not valid_id(command_id):
        raise ProtocolError(
            "bad_field",
            _("id must be a string of at most 64 characters or an integer within ±2^53."),
        )
    version = message.get("version")
    if kind in VERSIONED_COMMANDS and (type(version) is not int or version < 0):
        raise ProtocolError("bad_field", _("version must be a non-negative integer."))
    step = step_from_wire(message.get("step")) if kind == "step" else None
    chat = _chat_fields(kind, message)
    return Command(
        type=kind, id=command_id, version=version if kind in VERSIONED_COMMANDS else None,
        step=step, client_seed=_client_seed_field(kind, message), **chat,
    )  # fmt: skip


def _client_seed_field(kind: str, message: dict[str, Any]) -> str | None:
    """The sender's client seed (games/fairness) on the commands that carry one."""
    client_seed = message.get("client_seed")
    if kind not in SEEDED_COMMANDS:
        return None
    if not (client_seed is None and not SEEDED_COMMANDS[kind]) and not is_client_seed(client_seed):
        raise ProtocolError(
            "bad_field",
            _("client_seed must be 1 to 64 letters (a–z, A–Z), digits, “_” or “-”."),
        )
    return client_seed


def _chat_fields(kind: str, message: dict[str, Any]) -> dict[str, Any]:
    """`chat`: exactly one of `text` (a string) and `phrase` (a string); `chat_mute`: `mute`, a
    boolean. Their values are checked by the chat service."""
    if kind == "chat":
        text, phrase = message.get("text"), message.get("phrase")
        if (text is None) == (phrase is None):
            raise ProtocolError("bad_field", _("chat needs either text or phrase."))
        if not isinstance(text if phrase is None else phrase, str):
            raise ProtocolError("bad_field", _("text and phrase must be strings."))
        return {"text": text, "phrase": phrase}
    if kind == "chat_mute":
        mute = message.get("mute")
        if type(mute) is not bool:
            raise ProtocolError("bad_field", _("mute must be true or false."))
        return {"mute": mute}
    return {}


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
