"""The personal `/ws/me/` socket: who am I, ping, and the user's notifications on every page:
direct challenges to answer, and the bell (notifications/, docs/protocol.md "The site socket")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _

from config.database_thread import in_database_thread
from games.selectors import pending_challenges
from notifications.protocol import NotificationsClear, NotificationsRead
from notifications.services import (
    notifications_clear,
    notifications_mark_read,
    notifications_snapshot,
)
from realtime.commands import Command, CommandRegistry, Entry, ProtocolError, Sender
from realtime.errors import CommandError
from realtime.socket import SiteSocket, echo_id

# The site socket's commands (realtime/commands.py); anyone may send them.
ME_COMMANDS = CommandRegistry("/ws/me/")

# What the site socket of every page shows: direct challenges (templates/_notifications.html)
# and the bell (templates/notifications/_bell.html).
SITE_NOTIFICATIONS = frozenset(
    {"challenge", "challenge_gone", "challenge_declined", "notification", "notifications_changed"}
)


class MeSocket(SiteSocket):
    """`/ws/me/`: who am I, ping → pong (connectivity checks, the idle-socket test), and the
    user's notifications on every page (a direct challenge to accept or decline)."""

    async def on_open(self) -> None:
        user = self.user
        await self.send_json({"type": "hello", "user": user.username if user else None})
        if user is not None:
            for payload in await _read_pending(user.pk):
                await self.send_json(payload)
            await self.send_json(await _read_bell(user.pk))

    async def on_notify(self, payload: dict[str, Any]) -> None:
        if payload.get("type") in SITE_NOTIFICATIONS:
            await self.send_json(payload)

    async def handle(self, message: dict[str, Any]) -> None:
        entry = ME_COMMANDS.entry(message["type"])
        if entry is None:
            await super().handle(message)  # `unknown_type`
            return
        if entry.sender is Sender.SIGNED_IN and self.user is None:
            await self.send_error("login_required", str(entry.login_message), reply_to=message)
            return
        await entry.handler(self, entry, message)

    async def _bell(self, entry: Entry, message: dict[str, Any]) -> None:
        """Mark read or clear (notifications/protocol.py): the sender gets an `ack` with the
        unread count; every page of theirs a `notifications_changed`."""
        try:
            command = entry.command.from_wire(message)
            change = _BELL_CHANGES[command.type]
            await change(user_id=self.user.pk, ids=command.chosen)
        except (ProtocolError, CommandError) as error:
            await self.send_error(error.code, str(error), reply_to=message)
            return
        await self.send_json({"type": "ack", "id": echo_id(message)})

    async def _pong(self, entry: Entry, message: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "id": echo_id(message)})

    async def _echo_via_layer(self, entry: Entry, message: dict[str, Any]) -> None:
        """A round trip through the Redis channel layer back to this very socket."""
        await self.channel_layer.send(self.channel_name, {"type": "layer.echo"})

    async def layer_echo(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "layer_echo"})


@dataclass(frozen=True, kw_only=True)
class MePing(Command):
    type: ClassVar[str] = "ping"


@dataclass(frozen=True, kw_only=True)
class EchoViaLayer(Command):
    """The health check of the channel layer (tests/integration/test_processes.py)."""

    type: ClassVar[str] = "echo_via_layer"


ME_COMMANDS.register(MePing, sender=Sender.ANYONE, handler=MeSocket._pong)
ME_COMMANDS.register(EchoViaLayer, sender=Sender.ANYONE, handler=MeSocket._echo_via_layer)
_SIGN_IN_FOR_BELL = _("Sign in to see your notifications.")
ME_COMMANDS.register(
    NotificationsRead, sender=Sender.SIGNED_IN, handler=MeSocket._bell,
    login_message=_SIGN_IN_FOR_BELL,
)  # fmt: skip
ME_COMMANDS.register(
    NotificationsClear, sender=Sender.SIGNED_IN, handler=MeSocket._bell,
    login_message=_SIGN_IN_FOR_BELL,
)  # fmt: skip


_read_pending = in_database_thread(pending_challenges)
_read_bell = in_database_thread(notifications_snapshot)
_BELL_CHANGES = {
    NotificationsRead.type: in_database_thread(notifications_mark_read),
    NotificationsClear.type: in_database_thread(notifications_clear),
}
