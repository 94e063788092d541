"""The tournament's own chat: a line from one of its players to everyone on the tournament's
page, until the tournament ends. The chat app's rules for a line apply (chat.services.clean_text:
1–140 showable characters; moderation's refusal of a banned or chat-muted author), and
CHAT_MESSAGES_PER_WINDOW lines per CHAT_WINDOW_SECONDS per author, counted with the author's row
locked. The match chat's rows belong to a match (chat/models.py), so a tournament keeps its lines
in its own table."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.locks import user_row_lock
from chat.services import clean_text
from moderation.eligibility import refuse_chat
from realtime.errors import CommandError
from tournaments import live
from tournaments.models import ChatLine, Player, Status, Tournament


def wire_line(line: ChatLine, username: str) -> dict:
    return {"id": line.pk, "user": username, "text": line.text,
            "at": line.created_at.isoformat()}  # fmt: skip


def refuse_outsider(tournament: Tournament, user_id: int) -> None:
    """The chat is the players': open from the tournament's creation to its end, to those who
    joined (a withdrawn player too: they may come back, points kept), never to a player a
    moderator or a ban removed (docs/rules.md "Arena tournaments", item 6)."""
    if tournament.status in (Status.FINISHED, Status.CANCELLED) or (
        timezone.now() >= tournament.ends_at
    ):
        raise CommandError("tournament_over", _("This tournament is over: its chat is closed."))
    removed = (
        Player.objects.filter(tournament=tournament, user_id=user_id)
        .values_list("removed", flat=True)
        .first()
    )
    if removed is None:
        raise CommandError(
            "not_joined", _("Only the tournament's players chat here: join it first.")
        )
    if removed:
        raise CommandError("removed", _("A moderator removed you from this tournament."))


def tournament_chat_post(*, user, tournament_id: int, text: object) -> ChatLine:
    """Post a line: a player of the tournament, before its end (`refuse_outsider`); guests and
    bots do not chat here. Locks the author's row."""
    if user is None or not user.is_authenticated or user.is_guest or user.is_bot:
        raise CommandError("login_required", _("Sign in to chat."))
    cleaned = clean_text(text)
    with transaction.atomic():
        author = user_row_lock(user.pk, active=True)
        if author is None:
            raise CommandError("account_inactive", _("This account is deactivated."))
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError("not_found", _("There is no such tournament."))
        refuse_chat(author)
        refuse_outsider(tournament, user.pk)
        now = timezone.now()
        since = now - timedelta(seconds=settings.CHAT_WINDOW_SECONDS)
        if (
            ChatLine.objects.filter(user_id=user.pk, created_at__gt=since).count()
            >= settings.CHAT_MESSAGES_PER_WINDOW
        ):
            raise CommandError(
                "rate_limited", _("You are sending messages too fast; wait a moment.")
            )
        line = ChatLine.objects.create(
            tournament_id=tournament_id, user_id=user.pk, text=cleaned, created_at=now
        )
        live.send_on_commit(
            tournament_id, {"type": "tournament.chat", "line": wire_line(line, author.username)}
        )
    return line
