"""Who sees which chat, and the messages a viewer gets.

- The players' chat: everyone who may watch the match.
- The spectators' chat: spectators always; the two players only once the match is over (no
  outside help during play). An open challenge counts as "during": its creator is a player.
- Never shown to a viewer: the messages of anyone they block or who blocks them, and, for a
  player who muted the opponent in this match, the opponent's.
"""

from __future__ import annotations

from typing import Any

from chat.models import ChatMessage, ChatMute, Room
from moderation.selectors import block_related_ids

CHAT_HISTORY_LIMIT = 200
DURING_PLAY = ("open", "active")


def rooms_visible(*, match_status: str, is_player: bool) -> tuple[str, ...]:
    if is_player and match_status in DURING_PLAY:
        return (Room.PLAYERS,)
    return (Room.PLAYERS, Room.SPECTATORS)


def hidden_authors(*, viewer_id: int | None, match_id: int) -> set[int]:
    """The users whose messages this viewer does not get in this match."""
    if viewer_id is None:
        return set()
    hidden = block_related_ids(viewer_id)
    muted = ChatMute.objects.filter(match_id=match_id, user_id=viewer_id).values_list(
        "muted_id", flat=True
    )
    hidden.update(muted)
    return hidden


def wire_message(message: ChatMessage, username: str) -> dict[str, Any]:
    """A message as the socket sends it (docs/protocol.md `chat`). The text is plain text: pages
    put it in the DOM as text (never as HTML)."""
    return {
        "id": message.pk,
        "room": message.room,
        "user": username,
        "text": message.text,
        "phrase": message.phrase or None,
        "at": message.created_at.isoformat(),
    }


def chat_for_viewer(
    *, match_id: int, match_status: str, viewer_id: int | None, is_player: bool
) -> dict[str, Any]:
    """The `chat` part of a snapshot: the last messages this viewer may see, oldest first, and
    whether a player muted the opponent."""
    rooms = rooms_visible(match_status=match_status, is_player=is_player)
    hidden = hidden_authors(viewer_id=viewer_id, match_id=match_id)
    rows = (
        ChatMessage.objects.filter(match_id=match_id, room__in=rooms)
        .exclude(user_id__in=hidden)
        .select_related("user")
        .order_by("-id")[:CHAT_HISTORY_LIMIT]
    )
    muted = is_player and ChatMute.objects.filter(match_id=match_id, user_id=viewer_id).exists()
    return {
        "messages": [wire_message(row, row.user.username) for row in reversed(rows)],
        "opponent_muted": bool(muted),
    }


def match_chat(match_id: int, *, viewer_id: int | None = None) -> list[ChatMessage]:
    """Both chats of a match, in order (the replay, the report queue): for after the match. With
    a viewer, without the messages of anyone blocked either way."""
    rows = ChatMessage.objects.filter(match_id=match_id).select_related("user").order_by("id")
    if viewer_id is not None:
        rows = rows.exclude(user_id__in=block_related_ids(viewer_id))
    return list(rows)
