"""Chat writes: a message, and a player muting the opponent for the match.

A message is refused, changing nothing, when it is empty or longer than 140 characters, shows
nothing or holds control or direction-control characters (config/showable_text.py), the match
has not started (an open or cancelled challenge: no chat) or is a private challenge the author
may not see, its author is banned or chat-muted by a moderator, or the author sent
CHAT_MESSAGES_PER_WINDOW messages in the last CHAT_WINDOW_SECONDS (counted in PostgreSQL with the
author's row locked, so several tabs or processes cannot race past the limit). After commit it is
published to the match's sockets, which show it to whom the visibility rules allow
(chat/selectors.py, games/consumers.py).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.locks import user_row_lock
from chat.models import MAX_CHAT_LENGTH, ChatMessage, ChatMute, QuickPhrase, Room
from chat.selectors import DURING_PLAY, wire_message
from config.showable_text import UnshowableText, check_showable
from games.events import match_message
from games.models import Match
from games.selectors import NEVER_STARTED, match_parties, may_see_match
from moderation.eligibility import refuse_chat
from realtime.errors import CommandError
from realtime.publisher import publish_on_commit


def clean_text(text: object) -> str:
    """The text as stored: stripped, 1–140 characters, showable (config/showable_text.py: no
    control or direction-control characters, something visible left). Raises CommandError
    otherwise."""
    if not isinstance(text, str):
        raise CommandError("bad_field", _("text must be a string."))
    text = text.strip()
    if not text:
        raise CommandError("bad_field", _("The message is empty."))
    if len(text) > MAX_CHAT_LENGTH:
        raise CommandError(
            "too_long",
            _("A message is at most %(count)s characters.") % {"count": MAX_CHAT_LENGTH},
        )
    try:
        check_showable(text)
    except UnshowableText as refusal:
        raise CommandError("bad_field", str(refusal.message)) from None
    return text


def chat_post(*, user, match_id: int, text: str | None = None, phrase: str | None = None):
    """Post a message (a text or a quick phrase) to the match's chat: the players' chat for its
    two players, the spectators' chat for everyone else signed in. Locks the author's row."""

    if user is None or not user.is_authenticated:
        raise CommandError("login_required", _("Sign in to chat."))
    if (text is None) == (phrase is None):
        raise CommandError("bad_field", _("Send either a text or a quick phrase."))
    if phrase is not None and phrase not in QuickPhrase.values:
        raise CommandError("bad_field", _("There is no such quick phrase."))
    cleaned = clean_text(text) if text is not None else ""
    with transaction.atomic():
        locked_user = user_row_lock(user.pk, active=True)
        if locked_user is None:
            raise CommandError("account_inactive", _("This account is deactivated."))
        match = (
            Match.objects.filter(pk=match_id)
            .only("creator_id", "opponent_id", "invited_id", "status", "private")
            .first()
        )
        if match is None or not may_see_match(match_parties(match), locked_user):
            raise CommandError("not_found", _("There is no such match."))
        if match.status in NEVER_STARTED:
            # No chat before the match: an open challenge is nobody's table yet.
            raise CommandError("match_not_started", _("The chat opens when the match starts."))
        is_player = user.pk in (match.creator_id, match.opponent_id)
        refuse_chat(user)  # a ban, a chat mute
        now = timezone.now()
        since = now - timedelta(seconds=settings.CHAT_WINDOW_SECONDS)
        if (
            ChatMessage.objects.filter(user_id=user.pk, created_at__gt=since).count()
            >= settings.CHAT_MESSAGES_PER_WINDOW
        ):
            raise CommandError(
                "rate_limited", _("You are sending messages too fast; wait a moment.")
            )
        message = ChatMessage.objects.create(
            match_id=match_id, user_id=user.pk, room=Room.PLAYERS if is_player else Room.SPECTATORS,
            text=cleaned, phrase=phrase or "", created_at=now,
        )  # fmt: skip
        payload = {
            "type": "match.chat",
            "author": user.pk,
            # During play the players do not get the spectators' chat (chat/selectors.py).
            "during_play": match.status in DURING_PLAY,
            "message": wire_message(message, locked_user.username),
        }
        publish_on_commit([match_message(match_id, payload)])
    return message


def chat_mute_opponent(*, user, match_id: int, mute: bool) -> bool:
    """A player mutes (or unmutes) the opponent's chat for this match. Returns the new state."""

    if user is None or not user.is_authenticated:
        raise CommandError("login_required", _("Sign in to chat."))
    with transaction.atomic():
        match = Match.objects.filter(pk=match_id).values("creator_id", "opponent_id").first()
        if match is None:
            raise CommandError("not_found", _("There is no such match."))
        if user.pk not in (match["creator_id"], match["opponent_id"]):
            raise CommandError(
                "not_a_player", _("Only the two players can do that; you are watching.")
            )
        opponent_id = (
            match["opponent_id"] if user.pk == match["creator_id"] else match["creator_id"]
        )
        if opponent_id is None:
            raise CommandError("bad_field", _("There is no opponent yet."))
        if mute:
            ChatMute.objects.get_or_create(
                match_id=match_id, user_id=user.pk, defaults={"muted_id": opponent_id}
            )
        else:
            ChatMute.objects.filter(match_id=match_id, user_id=user.pk).delete()
        payload = {"type": "match.chat_mute", "by": user.pk, "muted": opponent_id, "mute": mute}
        publish_on_commit([match_message(match_id, payload)])
    return mute
