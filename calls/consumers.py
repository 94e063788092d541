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

import math
import time
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from calls import budgets, selectors
from calls.commands import CALL_COMMANDS, CallJoin, Relayed
from calls.ice import ice_servers, turn_credentials
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
    """Calls' part of a match socket (games/consumers.py `MATCH_PARTS`): the frames it passes on
    to its page, and the hang-up when a block comes between the players."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.handlers = {SIGNAL: self.call_signal, "moderation.blocks": self.moderation_blocks}

    async def opened(self) -> None:
        """Nothing to read: a call starts only when its page asks (`call_join`)."""

    async def add_to_snapshot(self, state: dict[str, Any]) -> None:
        """A call is no match state: snapshots carry nothing of it."""

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


async def _call_command(socket, command: Command, message: dict[str, Any]) -> None:
    """Any call command: from a player only, while the pair may call, within the user's
    signalling budget across all their sockets (calls/budgets.py); then `call_join` gets the ICE
    servers in its ack, and the others are relayed to the opponent."""
    user = socket.user
    if user is None or socket.seat is None:
        await socket.send_error(
            "not_a_player", _("Only the two players can do that; you are watching."),
            reply_to=message,
        )  # fmt: skip
        return
    try:
        pair = await _read_pair(match_id=socket.match_id, user_id=user.pk)
    except CommandError as refusal:
        await socket.send_error(refusal.code, refusal.message, reply_to=message)
        return
    # Serialised once here, before counting its size: the receiving socket sends it as it is.
    # Counted only once the pair may call: a refused frame reaches nobody and spends nothing
    # (the socket's own message rate, realtime/socket.py, bounds those reads).
    text = json_text(command.relayed()) if isinstance(command, Relayed) else ""
    if not await budgets.take_signal(
        user_id=user.pk, match_id=socket.match_id, size=len(text), now=time.time()
    ):
        await socket.send_error(
            "rate_limited", _("Too many call messages; wait a moment."), reply_to=message
        )
        return
    if isinstance(command, CallJoin):
        await _join(socket, command, user.pk, message)
        return
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
                    "text": text,
                },
            )
        ]
    )
    await socket.send_json({"type": "ack", "id": command.id})


async def _join(socket, command: CallJoin, user_id: int, message: dict[str, Any]) -> None:
    """The ICE servers in the ack; TURN credentials of this person, lasting
    CALL_TURN_TTL_SECONDS, at most CALL_TURN_CREDENTIALS_PER_HOUR sets an hour. The page asks
    again before they expire, which only a player of an active match gets."""
    credentials = None
    if settings.CALL_TURN_URLS and settings.CALL_TURN_SECRET:
        wait = await budgets.take_turn_credentials(user_id=user_id)
        if wait is not None:
            minutes = math.ceil(wait / 60)
            await socket.send_error(
                "rate_limited",
                ngettext(
                    "Too many calls this hour; try again in %(minutes)s minute.",
                    "Too many calls this hour; try again in %(minutes)s minutes.",
                    minutes,
                )
                % {"minutes": minutes},
                reply_to=message,
            )
            return
        credentials = turn_credentials(
            secret=settings.CALL_TURN_SECRET, user_id=user_id, now=time.time(),
            ttl_seconds=settings.CALL_TURN_TTL_SECONDS,
        )  # fmt: skip
    servers = ice_servers(
        stun_urls=settings.CALL_STUN_URLS, turn_urls=settings.CALL_TURN_URLS,
        credentials=credentials,
    )  # fmt: skip
    # Seconds, not a time: the page's clock need not agree with the server's.
    expires_in = settings.CALL_TURN_TTL_SECONDS if credentials else None
    await socket.send_json({"type": "ack", "id": command.id, "ice_servers": servers,
                            "ice_expires_in": expires_in})  # fmt: skip


# Registered for any sender: the handler itself refuses spectators and anonymous viewers with
# `not_a_player` (the player path of games/consumers.py expects a versioned match write).
for _command in CALL_COMMANDS:
    MATCH_COMMANDS.register(_command, sender=Sender.ANYONE, handler=_call_command)

MATCH_PARTS.append(CallPart)
