"""The emails of correspondence play (docs/rules.md, Platform rules, Correspondence): your turn,
and a day before its deadline. Each signal of games/hooks.py queues a Celery task, so no match
command waits for a mail server; the task sends through allauth's adapter (the reader's language,
the site's subject prefix, Django's EMAIL_* settings) to a verified address of a player who has
not turned the emails off on the preferences page (`User.correspondence_emails`). A task has no
request, so the site's address is SITE_URL's (allauth's `send_mail` reads it from the request)."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.conf import settings
from django.utils import translation

from accounts.models import User
from games import hooks, schedule
from games.models import Match, MatchStatus
from realtime.language import user_language

log = logging.getLogger(__name__)

# The signal's kind -> the email's templates (templates/games/email/<kind>_subject.txt and
# <kind>_message.txt).
KINDS = {"turn_due": "games/email/turn_due", "deadline_near": "games/email/deadline_near"}


def correspondence_email_send(*, user_id: int, match_id: int, kind: str) -> bool:
    """Send one correspondence email, unless the player opted out, has no verified address, or
    the match is no longer being played; True when one was sent."""
    template = KINDS[kind]
    user = User.objects.filter(pk=user_id, is_active=True, correspondence_emails=True).first()
    match = Match.objects.filter(pk=match_id, status=MatchStatus.ACTIVE).first()
    if user is None or match is None or user.is_bot:
        return False
    address = (
        EmailAddress.objects.filter(user=user, verified=True)
        .order_by("-primary")
        .values_list("email", flat=True)
        .first()
    )
    if address is None:
        return False
    seat = match.seat_of(user.pk)
    if seat is None:
        return False
    opponent = User.objects.get(pk=match.player_id(1 - seat))
    context = {
        "user": user,
        "email": address,
        "current_site": {"domain": urlsplit(settings.SITE_URL).netloc},
        "opponent": opponent.username,
        "match_url": settings.SITE_URL + match.get_absolute_url(),
        "deadline": match_deadline(match),
    }
    with translation.override(user_language(user) or settings.LANGUAGE_CODE):
        get_adapter().render_mail(template, address, context).send()
    return True


def match_deadline(match: Match):
    game = match.games.order_by("-number").only("turn_deadline").first()
    return game.turn_deadline if game is not None else None


def _queue(kind: str):
    def receiver(sender: Any, *, user_id: int, match_id: int, **_kwargs: Any) -> None:
        schedule.correspondence_email(user_id, match_id, kind)

    receiver.__qualname__ = f"correspondence_email_{kind}"
    return receiver


_receivers = {
    hooks.correspondence_turn_due: _queue("turn_due"),
    hooks.correspondence_deadline_near: _queue("deadline_near"),
}


def connect() -> None:
    """Hear both signals (GamesConfig.ready())."""
    for signal, receiver in _receivers.items():
        signal.connect(receiver, dispatch_uid=receiver.__qualname__)
