"""The bell's commands on the site socket (docs/protocol.md "The site socket"): mark read and
clear, each naming either some notifications (`ids`, 1 to MAX_IDS_PER_COMMAND of the sender's
own) or all of them (`all: true`), never both and never neither."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _

from config.wire import MAX_SAFE_INTEGER
from notifications.services import MAX_IDS_PER_COMMAND
from realtime.commands import Command, ProtocolError, boolean, wire

IDS_MESSAGE = _("ids must be a list of 1 to 50 notification ids.")
ALL_MESSAGE = _("all must be true or false.")
EITHER_MESSAGE = _("Name the notifications (ids) or all of them (all: true), not both.")


def notification_ids(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_IDS_PER_COMMAND:
        raise ProtocolError("bad_field", str(IDS_MESSAGE))
    for item in value:
        if type(item) is not int or not 1 <= item <= MAX_SAFE_INTEGER:
            raise ProtocolError("bad_field", str(IDS_MESSAGE))
    return tuple(value)


@dataclass(frozen=True, kw_only=True)
class _Choice(Command):
    ids: tuple[int, ...] | None = wire(notification_ids, optional=True)
    all: bool | None = wire(boolean(ALL_MESSAGE), optional=True)

    def check(self) -> None:
        if (self.ids is None) == (self.all is not True):
            raise ProtocolError("bad_field", str(EITHER_MESSAGE))

    @property
    def chosen(self) -> list[int] | None:
        """The ids named, or None for all of them."""
        return None if self.all else list(self.ids or ())


@dataclass(frozen=True, kw_only=True)
class NotificationsRead(_Choice):
    type: ClassVar[str] = "notifications_read"


@dataclass(frozen=True, kw_only=True)
class NotificationsClear(_Choice):
    type: ClassVar[str] = "notifications_clear"
