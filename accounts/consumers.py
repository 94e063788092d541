"""The socket base every consumer of the site uses, and the personal `/ws/me/` socket.

`SiteSocket` does what every socket needs and nothing game-specific: JSON parsing with a size cap,
a per-socket rate limit (settings.SOCKET_RATE_LIMIT_*; lila-ws allows 100 messages per 20 s on a
play socket, then closes with 1008),
errors to the sender only, and closing every socket of a user who logs out.
"""

from __future__ import annotations

import json
import time
from collections import deque
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.sessions import InstanceSessionWrapper
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.language import language_for_scope
from accounts.signals import user_group_name
from config.wire import json_text

MAX_MESSAGE_BYTES = 4096
CLOSE_POLICY_VIOLATION = 1008
CLOSE_LOGGED_OUT = 4001


class SiteSocket(AsyncWebsocketConsumer):
    user_group: str | None = None
    language: str | None = None

    async def connect(self) -> None:
        self._send_past_session_wrapper()
        self._recent: deque[float] = deque()
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.user_group = user_group_name(user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self.accept()
        await self.on_open()

    async def disconnect(self, code: int) -> None:
        if self.user_group:
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
        await self.on_close()

    def _send_past_session_wrapper(self) -> None:
        """Send frames straight to the server.

        Channels' session middleware wraps `send` to save the session, but only on HTTP responses
        (`save_message_types`); for a socket it just reads the lazy session and the settings on
        every frame (about 3 % of a Daphne process under load, bench/live_load.py).
        """
        wrapper = getattr(self.base_send, "__self__", None)
        real_send = getattr(wrapper, "real_send", None)
        if (
            isinstance(wrapper, InstanceSessionWrapper)
            and real_send is not None
            and not any(kind.startswith("websocket.") for kind in wrapper.save_message_types)
        ):
            self.base_send = real_send

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its `aclose_old_connections()` hop before every message.

        That hop runs on the process's one thread-sensitive worker thread, so each relayed event
        waited behind other sockets' database work. Our handlers never use the ORM themselves:
        every database call goes through DatabaseSyncToAsync, which closes stale connections
        around itself in its own thread — a consumer woken by a group event never meets a stale
        connection.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if self.language is None:  # read once: the user's choice, the cookie, Accept-Language
            self.language = language_for_scope(self.scope)
        # Errors are written in the socket's language, services' CommandError texts included
        # (database threads copy this context).
        with translation.override(self.language):
            await handler(message)

    async def on_open(self) -> None:
        """Subclasses: join groups, send the first snapshot."""

    async def on_close(self) -> None:
        """Subclasses: leave groups, update presence."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        now = time.monotonic()
        self._recent.append(now)
        while self._recent and now - self._recent[0] > settings.SOCKET_RATE_LIMIT_WINDOW_SECONDS:
            self._recent.popleft()
        if len(self._recent) > settings.SOCKET_RATE_LIMIT_MESSAGES:
            await self.send_error("rate_limited", _("Too many messages; the socket is closed."))
            await self.close(code=CLOSE_POLICY_VIOLATION)
            return
        if text_data is None:
            await self.send_error("bad_frame", _("Binary frames are not accepted."))
            return
        if len(text_data.encode()) > MAX_MESSAGE_BYTES:
            await self.send_error("too_large", _("The message is too large."))
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self.send_error("bad_json", _("The message is not valid JSON."))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_error("bad_message", _("A message must be an object with a type."))
            return
        await self.handle(message)

    async def handle(self, message: dict[str, Any]) -> None:
        await self.send_error("unknown_type", _("Unknown message type."), reply_to=message)

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json_text(payload))

    async def send_error(
        self, code: str, text: str, *, reply_to: dict[str, Any] | None = None
    ) -> None:
        payload: dict[str, Any] = {"type": "error", "code": code, "message": str(text)}
        if reply_to is not None and "id" in reply_to:
            payload["id"] = reply_to["id"]
        await self.send_json(payload)

    async def session_logout(self, event: dict[str, Any]) -> None:
        await self.close(code=CLOSE_LOGGED_OUT)


class MeSocket(SiteSocket):
    """`/ws/me/`: who am I, and ping → pong (connectivity checks, the idle-socket test)."""

    async def on_open(self) -> None:
        user = self.scope["user"]
        await self.send_json(
            {"type": "hello", "user": user.username if user.is_authenticated else None}
        )

    async def handle(self, message: dict[str, Any]) -> None:
        if message["type"] == "ping":
            await self.send_json({"type": "pong", "id": message.get("id")})
        elif message["type"] == "echo_via_layer":
            # A round trip through the Redis channel layer back to this very socket.
            await self.channel_layer.send(self.channel_name, {"type": "layer.echo"})
        else:
            await super().handle(message)

    async def layer_echo(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "layer_echo"})
