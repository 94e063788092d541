"""The chat side of the match socket: its commands and the chat messages it relays.

`ChatSocketMixin` is mixed into games.consumers.MatchSocket, which gives it `match_id`, `seat`
and `user`. Chat is not versioned (docs/protocol.md): a message changes no match state; a
snapshot carries the chat the viewer may see, and live messages follow as `chat` messages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from chat import selectors, services
from config.database_thread import in_database_thread
from games.protocol import Command
from realtime.errors import CommandError


def _chat(command: Command, *, user, match_id: int) -> dict[str, Any]:
    message = services.chat_post(
        user=user, match_id=match_id, text=command.text, phrase=command.phrase
    )
    return {"chat_id": message.pk}


def _chat_mute(command: Command, *, user, match_id: int) -> dict[str, Any]:
    muted = services.chat_mute_opponent(user=user, match_id=match_id, mute=bool(command.mute))
    return {"muted": muted}


# The chat's commands, for anyone signed in (chat_mute: the players). Not versioned: they change
# no match state. Each returns the extra fields of its ack. tests/games/test_socket_security.py
# checks that this table, PLAYER_COMMANDS and SOCKET_COMMANDS cover the protocol exactly.
CHAT_COMMANDS: dict[str, Callable[..., dict[str, Any]]] = {
    "chat": _chat,
    "chat_mute": _chat_mute,
}


read_chat = in_database_thread(selectors.chat_for_viewer)
_read_hidden = in_database_thread(selectors.hidden_authors)


@in_database_thread
def _run_chat_command(command: Command, user, match_id: int) -> dict[str, Any]:
    return CHAT_COMMANDS[command.type](command, user=user, match_id=match_id)


class ChatSocketMixin:
    match_id: int
    seat: int | None
    # Authors whose chat this viewer does not get: blocks either way, a muted opponent.
    hidden_authors: frozenset[int] = frozenset()

    async def _chat_command(self, command: Command, message: dict[str, Any]) -> None:
        user = self.user  # type: ignore[attr-defined]
        if user is None:
            await self.send_error("login_required", _("Sign in to chat."), reply_to=message)  # type: ignore[attr-defined]
            return
        try:
            fields = await _run_chat_command(command, user, self.match_id)
        except CommandError as failure:
            await self.send_error(failure.code, failure.message, reply_to=message)  # type: ignore[attr-defined]
            return
        await self.send_json({"type": "ack", "id": command.id, **fields})  # type: ignore[attr-defined]

    async def match_chat(self, message: dict[str, Any]) -> None:
        """A new message (chat/services.py publishes it after commit), shown as the rules say."""
        if message["author"] in self.hidden_authors:
            return
        if (
            message["message"]["room"] == "spectators"
            and self.seat is not None
            and message["during_play"]
        ):
            return  # no outside help for the players during play
        await self.send_json({"type": "chat", "message": message["message"]})  # type: ignore[attr-defined]

    async def match_chat_mute(self, message: dict[str, Any]) -> None:
        """A player (un)muted the opponent: that player's sockets (every tab) follow."""
        user = self.user  # type: ignore[attr-defined]
        if user is None or user.pk != message["by"]:
            return
        await self.read_hidden_authors()
        await self.send_json({"type": "chat_muted", "muted": message["mute"]})  # type: ignore[attr-defined]

    async def moderation_blocks(self, event: dict[str, Any]) -> None:
        """The viewer's blocks changed (moderation/services.py, through the user's group)."""
        await self.read_hidden_authors()

    async def read_hidden_authors(self) -> None:
        user = self.user  # type: ignore[attr-defined]
        if user is not None:
            self.hidden_authors = frozenset(
                await _read_hidden(viewer_id=user.pk, match_id=self.match_id)
            )
