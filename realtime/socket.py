"""The socket base every consumer of the site uses.

`SiteSocket` does what every socket needs and nothing game-specific: JSON parsing with a size and
depth cap, a per-socket rate limit (settings.SOCKET_RATE_LIMIT_*; lila-ws allows 100 messages per
20 s on a play socket, then closes; we close with 4008), caps on sockets per user and per client
address, errors to the sender only, and closing every socket of a user who logs out, is
deactivated or changes their password.

A socket survives any frame: whatever a handler raises becomes an `error` reply (`internal` for
the unexpected, logged) and the socket lives on. Whatever ends a socket, a clean close, an error
or a cancelled task, runs `on_close` exactly once (a `finally` around the consumer, not only
`disconnect`), so nothing is left in the hub or in presence.

The clean-up runs to its end even when the socket's task is cancelled again meanwhile: Daphne
cancels an application that has not finished `application_close_timeout` (10 s) after its client
left, and again every second until it has. On a saturated process the clean-up's own Redis round
trips can take longer than that; a cancellation landing in one step used to skip that step and
every later one (CancelledError is no Exception), leaving the socket in presence (counted as
watching for ever), in its user's group and in the socket-limit registry and its Redis set
(tests/games/test_socket_close_down.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any

import orjson
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext as _

from config import metrics
from config.client_address import client_address
from config.patches import channels_socket
from config.wire import json_text, valid_id
from realtime import publisher, socket_limits
from realtime.close_codes import (
    CLOSE_BANNED,
    CLOSE_LOGGED_OUT,
    CLOSE_RATE_LIMITED,
    CLOSE_TOO_MANY_SOCKETS,
)
from realtime.groups import user_group_name
from realtime.language import language_for_scope

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096
# What the client itself sends: only these are answered in the socket's language.
CLIENT_MESSAGE_TYPES = frozenset({"websocket.connect", "websocket.receive"})
# Clean-ups under way, held here until they end: the event loop keeps only weak references to
# tasks, and the socket that started one may be gone (cancelled) before it finishes.
_closing_down: set[asyncio.Task] = set()


class SiteSocket(AsyncWebsocketConsumer):
    user_group: str | None = None
    language: str | None = None
    _closing: asyncio.Task | None = None
    _counted_as: str | None = None  # the kind counted in nardy_sockets_open while open
    _limited: bool = False

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._close_down()

    @property
    def user(self):
        user = self.scope.get("user")
        return user if user is not None and user.is_authenticated else None

    async def connect(self) -> None:
        # From the first socket on, this process's worker threads publish through its loop
        # (realtime/publisher.py).
        publisher.attach()
        if channels_socket.USABLE:
            channels_socket.send_past_session_wrapper(self)
        self._recent: deque[float] = deque()
        user = self.user
        refusal = await socket_limits.acquire(
            self.channel_name, user_id=user.pk if user else None, address=client_address(self.scope)
        )
        self._limited = refusal is None
        if refusal is not None:
            await self.accept()
            await self.send_error("too_many_sockets", refusal)
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return
        if user is not None:
            self.user_group = user_group_name(user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self.accept()
        self._counted_as = type(self).__name__.removesuffix("Socket").lower()  # match, lobby, me
        metrics.socket_opened(self._counted_as)
        await self.on_open()

    async def disconnect(self, code: int) -> None:
        await self._close_down()

    async def _close_down(self) -> None:
        """Leave everything this socket joined; runs once, whatever ended the socket, and to its
        end: in a task of its own that a cancellation of the socket's task does not reach."""
        if self._closing is None:
            self._closing = asyncio.create_task(self._leave_everything())
            _closing_down.add(self._closing)
            self._closing.add_done_callback(_closing_down.discard)
        await asyncio.shield(self._closing)

    async def _leave_everything(self) -> None:
        if self._counted_as is not None:
            metrics.socket_closed(self._counted_as)
        steps = [self.on_close]
        if self.user_group:
            steps.append(
                lambda: self.channel_layer.group_discard(self.user_group, self.channel_name)
            )
        if self._limited:
            steps.append(lambda: socket_limits.release(self.channel_name))
        for step in steps:
            try:
                await step()
            except Exception:  # noqa: BLE001 - the other clean-up steps must still run
                log.exception("socket %s: clean-up step failed", self.scope.get("path"))

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its connection hop when Channels is the version we read
        (config/patches/channels_socket.py). The client's own messages (connect, frames) are
        handled in the socket's language: errors, services' CommandError texts included, are
        written in it (database threads copy this context).

        The language is read once and activated in the socket's own task, where the client's
        messages arrive: Daphne runs each socket's application in a task of its own, and a task
        has its own copy of the context the active language lives in (asgiref's Local, a context
        variable), so no other socket sees it. Switching it around every frame was 1.8 % of a
        Daphne process (bench/live_load.py). Relayed events are already serialised and reach
        the socket from the hub's task, so they need no language."""
        if message["type"] in CLIENT_MESSAGE_TYPES and self.language is None:
            # The user's choice, the cookie, Accept-Language.
            self.language = language_for_scope(self.scope)
            translation.activate(self.language)
        await self._dispatch(message)

    async def _dispatch(self, message: dict[str, Any]) -> None:
        if channels_socket.USABLE:
            await channels_socket.dispatch_without_connection_hop(self, message)
        else:
            await super().dispatch(message)

    async def on_open(self) -> None:
        """Subclasses: join groups, send the first snapshot."""

    async def on_close(self) -> None:
        """Subclasses: leave groups, update presence. Runs once, whatever ended the socket."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        now = time.monotonic()
        self._recent.append(now)
        while self._recent and now - self._recent[0] > settings.SOCKET_RATE_LIMIT_WINDOW_SECONDS:
            self._recent.popleft()
        if len(self._recent) > settings.SOCKET_RATE_LIMIT_MESSAGES:
            await self.send_error("rate_limited", _("Too many messages; the socket is closed."))
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        if text_data is None:
            await self.send_error("bad_frame", _("Binary frames are not accepted."))
            return
        if len(text_data.encode(errors="replace")) > MAX_MESSAGE_BYTES:
            await self.send_error("too_large", _("The message is too large."))
            return
        try:
            # orjson refuses NaN and Infinity and caps nesting at 1,024 levels with a ValueError
            # (the standard parser raised RecursionError on 1,500 levels).
            message = orjson.loads(text_data)
        except ValueError:
            await self.send_error("bad_json", _("The message is not valid JSON."))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_error("bad_message", _("A message must be an object with a type."))
            return
        try:
            await self.handle(message)
        except (OperationalError, InterfaceError):
            # PostgreSQL is out of reach (restarting, or no pooled connection within the pool's
            # timeout): the transaction did not commit, so nothing changed (the restart drills of
            # tests/integration/test_production_drills.py stop it under live play).
            log.warning("socket %s: database unavailable", self.scope.get("path"), exc_info=True)
            await self.send_error(
                "unavailable",
                _("The game server cannot reach its database right now; nothing was changed. "
                  "Try again in a moment."),
                reply_to=message,
            )  # fmt: skip
        except Exception:  # noqa: BLE001 - one bad frame must not end the socket
            user = self.user
            log.exception(
                "socket %s (user %s): handling a %r message failed",
                self.scope.get("path"), user.pk if user else None, message["type"][:40],
            )  # fmt: skip
            await self.send_error(
                "internal", _("Something went wrong on our side; nothing was changed by it."),
                reply_to=message,
            )  # fmt: skip

    async def handle(self, message: dict[str, Any]) -> None:
        await self.send_error("unknown_type", _("Unknown message type."), reply_to=message)

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json_text(payload))

    async def send_error(
        self, code: str, text: str, *, reply_to: dict[str, Any] | None = None
    ) -> None:
        payload: dict[str, Any] = {"type": "error", "code": code, "message": str(text)}
        if reply_to is not None and valid_id(reply_to.get("id")):
            payload["id"] = reply_to["id"]
        await self.send_json(payload)

    async def user_notify(self, event: dict[str, Any]) -> None:
        """A notification for this user (a direct challenge, a pairing), sent to every socket of
        theirs after commit (games/services/challenges.py, pairing/services.py)."""
        try:
            await self.on_notify(event["payload"])
        except Exception:  # noqa: BLE001 - a notification must never end the socket
            log.exception("socket %s: a notification failed", self.scope.get("path"))

    async def on_notify(self, payload: dict[str, Any]) -> None:
        """Subclasses: pass on the notifications their page shows."""

    async def session_logout(self, event: dict[str, Any]) -> None:
        """The user logged out, was deactivated, changed their password or was banned
        (accounts/signals.py): closed with the code the sender chose."""
        code = event.get("code")
        await self.close(
            code=code if code in (CLOSE_LOGGED_OUT, CLOSE_BANNED) else CLOSE_LOGGED_OUT
        )

    async def moderation_blocks(self, event: dict[str, Any]) -> None:
        """The user's blocks changed (moderation/services.py); match sockets re-read whose chat
        they hide, other sockets have nothing to do."""

    async def call_signal(self, event: dict[str, Any]) -> None:
        """A call's signalling frame for this user (calls/consumers.py, through the user's
        group): the match socket of that match passes it on; other sockets have nothing to do."""


def echo_id(message: dict[str, Any]) -> str | int | None:
    """The client's `id` of a message, to echo in the reply, when it is a valid one."""
    value = message.get("id")
    return value if valid_id(value) else None
