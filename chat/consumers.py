"""The chat side of the match socket: its commands and the chat messages it relays.

Registered into the match socket from here (chat's AppConfig.ready imports this module): its
commands into `MATCH_COMMANDS`, `ChatPart` into `MATCH_PARTS`; the socket never imports chat.
Chat is not versioned (docs/protocol.md): a message changes no match state; a
snapshot carries the chat the viewer may see, and live messages follow as `chat` messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from chat import selectors, services
from config.database_thread import in_database_thread
from games.consumers import MATCH_PARTS
from games.protocol import MATCH_COMMANDS
from realtime.commands import Command, ProtocolError, Sender, boolean, wire


def _any(value: object) -> object:
    return value  # checked with the other field in `Chat.check`


@dataclass(frozen=True, kw_only=True)
class Chat(Command):
    """Exactly one of `text` (plain text) and `phrase` (a quick phrase's key), both strings;
    their values are checked by the chat service. Not versioned: it changes no match state."""

    type: ClassVar[str] = "chat"
    text: str | None = wire(_any, optional=True)
    phrase: str | None = wire(_any, optional=True)

    def check(self) -> None:
        if (self.text is None) == (self.phrase is None):
            raise ProtocolError("bad_field", _("chat needs either text or phrase."))
        if not isinstance(self.text if self.phrase is None else self.phrase, str):
            raise ProtocolError("bad_field", _("text and phrase must be strings."))


_mute_from_wire = boolean(gettext_lazy("mute must be true or false."))


@dataclass(frozen=True, kw_only=True)
class ChatMute(Command):
    """Mute (or unmute) the opponent's chat: the players only (the chat service refuses others)."""

    type: ClassVar[str] = "chat_mute"
    mute: bool = wire(_mute_from_wire)


def _chat(command: Chat, *, user, match_id: int) -> dict[str, Any]:
    message = services.chat_post(
        user=user, match_id=match_id, text=command.text, phrase=command.phrase
    )
    return {"chat_id": message.pk}


def _chat_mute(command: ChatMute, *, user, match_id: int) -> dict[str, Any]:
    muted = services.chat_mute_opponent(user=user, match_id=match_id, mute=command.mute)
    return {"muted": muted}


# Chat's commands on the match socket, for anyone signed in; each handler returns the extra
# fields of its ack (docs/protocol.md "Chat").
for _command, _handler in ((Chat, _chat), (ChatMute, _chat_mute)):
    MATCH_COMMANDS.register(
        _command,
        sender=Sender.SIGNED_IN,
        handler=_handler,
        login_message=gettext_lazy("Sign in to chat."),
    )


read_chat = in_database_thread(selectors.chat_for_viewer)
_read_hidden = in_database_thread(selectors.hidden_authors)


class ChatPart:
    """Chat's part of a match socket (games/consumers.py `MATCH_PARTS`): the snapshot's chat,
    the chat messages it relays as the rules say, and whose chat this viewer does not get."""

    def __init__(self, socket) -> None:
        self.socket = socket
        # Authors whose chat this viewer does not get: blocks either way, a muted opponent.
        self.hidden_authors: frozenset[int] = frozenset()
        self.handlers = {
            "match.chat": self.match_chat,
            "match.chat_mute": self.match_chat_mute,
            "moderation.blocks": self.moderation_blocks,
        }

    async def opened(self) -> None:
        await self.read_hidden_authors()

    async def add_to_snapshot(self, state: dict[str, Any]) -> None:
        user = self.socket.user
        state["chat"] = await read_chat(
            match_id=self.socket.match_id,
            match_status=state["match"]["status"],
            viewer_id=user.pk if user else None,
            is_player=self.socket.seat is not None,
        )

    async def match_chat(self, message: dict[str, Any]) -> None:
        """A new message (chat/services.py publishes it after commit), shown as the rules say."""
        if message["author"] in self.hidden_authors:
            return
        if (
            message["message"]["room"] == "spectators"
            and self.socket.seat is not None
            and message["during_play"]
        ):
            return  # no outside help for the players during play
        await self.socket.send_json({"type": "chat", "message": message["message"]})

    async def match_chat_mute(self, message: dict[str, Any]) -> None:
        """A player (un)muted the opponent: that player's sockets (every tab) follow."""
        user = self.socket.user
        if user is None or user.pk != message["by"]:
            return
        await self.read_hidden_authors()
        await self.socket.send_json({"type": "chat_muted", "muted": message["mute"]})

    async def moderation_blocks(self, event: dict[str, Any]) -> None:
        """The viewer's blocks changed (moderation/services.py, through the user's group)."""
        await self.read_hidden_authors()

    async def read_hidden_authors(self) -> None:
        user = self.socket.user
        if user is not None:
            self.hidden_authors = frozenset(
                await _read_hidden(viewer_id=user.pk, match_id=self.socket.match_id)
            )


MATCH_PARTS.append(ChatPart)
