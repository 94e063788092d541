"""The personal `/ws/me/` socket: who am I, ping, and the user's notifications on every page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from config.database_thread import in_database_thread
from games.selectors import pending_challenges
from realtime.commands import Command, CommandRegistry, Sender
from realtime.socket import SiteSocket, echo_id

# The site socket's commands (realtime/commands.py); anyone may send them.
ME_COMMANDS = CommandRegistry("/ws/me/")

# What the site socket of every page shows: direct challenges (templates/_notifications.html).
SITE_NOTIFICATIONS = frozenset({"challenge", "challenge_gone", "challenge_declined"})


class MeSocket(SiteSocket):
    """`/ws/me/`: who am I, ping → pong (connectivity checks, the idle-socket test), and the
    user's notifications on every page (a direct challenge to accept or decline)."""

    async def on_open(self) -> None:
        user = self.user
        await self.send_json({"type": "hello", "user": user.username if user else None})
        if user is not None:
            for payload in await _read_pending(user.pk):
                await self.send_json(payload)

    async def on_notify(self, payload: dict[str, Any]) -> None:
        if payload.get("type") in SITE_NOTIFICATIONS:
            await self.send_json(payload)

    async def handle(self, message: dict[str, Any]) -> None:
        entry = ME_COMMANDS.entry(message["type"])
        if entry is None:
            await super().handle(message)  # `unknown_type`
            return
        await entry.handler(self, message)

    async def _pong(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "id": echo_id(message)})

    async def _echo_via_layer(self, message: dict[str, Any]) -> None:
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


_read_pending = in_database_thread(pending_challenges)
