"""The call's side of the match socket: signalling relayed to the opponent's pages only.

Registered into the match socket from here (calls' AppConfig.ready imports this module): the
commands of calls/commands.py into `MATCH_COMMANDS`, `CallPart` into `MATCH_PARTS`; the socket
never imports calls. The media goes between the two browsers (or through the TURN server of
deploy/coturn/); the server only relays what the pages need to find each other
(docs/protocol.md "Calls").

A frame is relayed through the opponent's user group (realtime/groups.py, sent by the process's
publisher): it reaches that user's
sockets on every Daphne process, and only their match socket of this match, in the opponent's
seat, passes it on. Spectators are never in that group, so no frame of a call comes near them.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from calls import selectors
from calls.commands import CALL_COMMANDS, CallJoin, Relayed
from calls.ice import ice_servers
from config.database_thread import in_database_thread
from config.wire import json_text
from games.consumers import MATCH_PARTS
from games.protocol import MATCH_COMMANDS
from realtime.commands import Command, Sender
from realtime.errors import CommandError
from realtime.groups import user_message
from realtime.publisher import publish

SIGNAL = "call.signal"

_read_pair = in_database_thread(selectors.call_pair)
_read_blocked = in_database_thread(selectors.call_blocked)


class CallPart:
    """Calls' part of a match socket (games/consumers.py `MATCH_PARTS`): this socket's signalling
    rate, the frames it passes on to its page, and the hang-up when a block comes between the
    players."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.recent: deque[float] = deque()
        self.handlers = {SIGNAL: self.call_signal, "moderation.blocks": self.moderation_blocks}

    async def opened(self) -> None:
        """Nothing to read: a call starts only when its page asks (`call_join`)."""

    async def add_to_snapshot(self, state: dict[str, Any]) -> None:
        """A call is no match state: snapshots carry nothing of it."""

    def take_turn(self, now: float) -> bool:
        """Count one signalling frame; False past CALL_SIGNALS_PER_WINDOW in the window."""
        while self.recent and now - self.recent[0] > settings.CALL_WINDOW_SECONDS:
            self.recent.popleft()
        if len(self.recent) >= settings.CALL_SIGNALS_PER_WINDOW:
            return False
        self.recent.append(now)
        return True

    async def call_signal(self, message: dict[str, Any]) -> None:
        """A frame from the opponent (through this user's group): to the page only when this
        socket sits in the seat it was sent to, at that match."""
        if message["match_id"] == self.socket.match_id and message["seat"] == self.socket.seat:
            await self.socket.send(text_data=message["text"])

    async def moderation_blocks(self, event: dict[str, Any]) -> None:
        """The user's blocks changed (moderation/services.py tells both users): blocking ends any
        call, so a page whose opponent is now blocked, either way, hangs up."""
        user = self.socket.user
        if user is None or self.socket.seat is None:
            return
        if await _read_blocked(match_id=self.socket.match_id, user_id=user.pk):
            await self.socket.send_json(
                {"type": "call_hangup", "session": None, "reason": "blocked"}
            )


def _part(socket) -> CallPart:
    return next(part for part in socket.parts if isinstance(part, CallPart))


async def _call_command(socket, command: Command, message: dict[str, Any]) -> None:
    """Any call command: from a player only, within the rate, while the pair may call; then
    `call_join` gets the ICE servers in its ack, and the others are relayed to the opponent."""
    user = socket.user
    if user is None or socket.seat is None:
        await socket.send_error(
            "not_a_player", _("Only the two players can do that; you are watching."),
            reply_to=message,
        )  # fmt: skip
        return
    if not _part(socket).take_turn(time.monotonic()):
        await socket.send_error(
            "rate_limited", _("Too many call messages; wait a moment."), reply_to=message
        )
        return
    try:
        pair = await _read_pair(match_id=socket.match_id, user_id=user.pk)
    except CommandError as refusal:
        await socket.send_error(refusal.code, refusal.message, reply_to=message)
        return
    if isinstance(command, CallJoin):
        servers = ice_servers(
            stun_urls=settings.CALL_STUN_URLS,
            turn_urls=settings.CALL_TURN_URLS,
            secret=settings.CALL_TURN_SECRET,
            match_id=socket.match_id,
            user_id=user.pk,
            now=time.time(),
            ttl_seconds=settings.CALL_TURN_TTL_SECONDS,
        )
        await socket.send_json({"type": "ack", "id": command.id, "ice_servers": servers})
        return
    assert isinstance(command, Relayed)
    # Through the process's publisher (realtime/publisher.py): handed to its one ordered queue,
    # so a page's offer parts and candidates reach the opponent in the order they were sent.
    publish(
        [
            user_message(
                pair.opponent_id,
                {
                    "type": SIGNAL,
                    "match_id": socket.match_id,
                    "seat": pair.opponent_seat,
                    # Serialised once here: the receiving socket sends it as it is.
                    "text": json_text(command.relayed()),
                },
            )
        ]
    )
    await socket.send_json({"type": "ack", "id": command.id})


# Registered for any sender: the handler itself refuses spectators and anonymous viewers with
# `not_a_player` (the player path of games/consumers.py expects a versioned match write).
for _command in CALL_COMMANDS:
    MATCH_COMMANDS.register(_command, sender=Sender.ANYONE, handler=_call_command)

MATCH_PARTS.append(CallPart)
