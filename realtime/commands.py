"""One registry of a socket's commands: the parser, the socket's dispatch table, the protocol
document's table and the page's list are all read from it (docs/protocol.md "Client → server").

A command is a frozen dataclass: `type` names it on the wire, its dataclass fields are its wire
fields, each declared with `wire(check)` (a check turns the raw JSON value into the typed one or
raises `ProtocolError("bad_field", ...)`; `optional=True` lets it be missing or null), and every
command has the client's optional `id`. A socket builds one `CommandRegistry` and registers every
command it accepts with who may send it and what runs it; an app above the socket's registers its
own commands into it from its own code, so the socket never imports that app.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any, ClassVar

from django.utils.translation import gettext as _

from config.wire import valid_id


class ProtocolError(ValueError):
    """A malformed frame: `code` for programs (docs/protocol.md), the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Sender(Enum):
    """Who may send a command; the socket refuses anyone else before its handler runs."""

    ANYONE = "anyone"  # anyone watching, signed in or not
    SIGNED_IN = "signed_in"  # a signed-in user (`login_required` otherwise)
    PLAYER = "player"  # one of the match's two players (`not_a_player` otherwise)


def wire(check: Callable[[Any], Any], *, optional: bool = False) -> Any:
    """A command's wire field: `check(value)` returns the typed value or raises ProtocolError;
    an optional field may be missing (None), a required one goes through `check` even then."""
    return dataclasses.field(default=None, metadata={"check": check, "optional": optional})


def boolean(message: Any) -> Callable[[Any], bool]:
    """The check of a boolean wire field: true or false only (not 1, 0 or "true"), else
    `bad_field` with `message` (a lazy translation: read in the socket's language)."""

    def check(value: object) -> bool:
        if type(value) is not bool:
            raise ProtocolError("bad_field", str(message))
        return value  # type: ignore[return-value]

    return check


@dataclass(frozen=True, kw_only=True)
class Command:
    """A parsed client frame. Subclasses set `type` and declare their fields with `wire`."""

    type: ClassVar[str]
    # Settled by the versioned event the command causes, whatever its ack says: the page keeps it
    # in flight until that event comes (static/js/match/socket.js).
    answered_by_events: ClassVar[bool] = False
    id: str | int | None = None

    @classmethod
    def wire_fields(cls) -> tuple[dataclasses.Field, ...]:
        return _wire_fields(cls)

    @classmethod
    def versioned(cls) -> bool:
        return any(field.name == "version" for field in cls.wire_fields())

    @classmethod
    def from_wire(cls, message: dict[str, Any]) -> Command:
        values = {}
        for field in cls.wire_fields():
            value = message.get(field.name)
            if not (value is None and field.metadata["optional"]):
                value = field.metadata["check"](value)
            values[field.name] = value
        command = cls(id=message.get("id"), **values)
        command.check()
        return command

    def check(self) -> None:
        """Subclasses: checks across fields (raise ProtocolError)."""


@cache
def _wire_fields(command: type[Command]) -> tuple[dataclasses.Field, ...]:
    """A command class's wire fields, read once: `dataclasses.fields` walks the class on every
    call, and doing so for every frame was 1.3 % of a Daphne process (bench/live_load.py)."""
    return tuple(field for field in dataclasses.fields(command) if "check" in field.metadata)


@dataclass(frozen=True)
class Entry:
    """A registered command: its class, who may send it, and what runs it (the socket's
    dispatch decides how a handler is called for each sender)."""

    command: type[Command]
    sender: Sender
    handler: Callable[..., Any]
    # The `login_required` message of a command for signed-in users.
    login_message: Any = None


class CommandRegistry:
    """The commands one socket accepts, by wire type. Registering a type twice is an error."""

    def __init__(self, socket: str) -> None:
        self.socket = socket
        self._entries: dict[str, Entry] = {}

    def register(
        self,
        command: type[Command],
        *,
        sender: Sender,
        handler: Callable[..., Any],
        login_message: Any = None,
    ) -> None:
        if command.type in self._entries:
            raise ValueError(f"{self.socket}: {command.type!r} is registered already")
        self._entries[command.type] = Entry(command, sender, handler, login_message)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries.values())

    def __contains__(self, kind: object) -> bool:
        return kind in self._entries

    def entry(self, kind: str) -> Entry | None:
        return self._entries.get(kind)

    @property
    def types(self) -> frozenset[str]:
        return frozenset(self._entries)

    def parse(self, message: dict[str, Any]) -> tuple[Command, Entry]:
        """The typed command of a decoded JSON object and its entry, or ProtocolError naming
        what is wrong (`unknown_type`, `bad_field`)."""
        kind = message.get("type")
        entry = self._entries.get(kind) if isinstance(kind, str) else None
        if entry is None:
            message_text = _("Unknown message type %(type)r.") % {"type": kind}
            raise ProtocolError("unknown_type", message_text)
        if not (message.get("id") is None or valid_id(message["id"])):
            raise ProtocolError(
                "bad_field",
                _("id must be a string of at most 64 characters or an integer within ±2^53."),
            )
        return entry.command.from_wire(message), entry
