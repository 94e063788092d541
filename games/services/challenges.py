"""Direct challenges: a private challenge to one named player, shown to them
live on any page through their site socket; they accept or decline, and it lapses after
DIRECT_CHALLENGE_SECONDS. The match row is the challenge (`Match.invited`, `Match.expires_at`);
accepting is `match_accept`, which lets only the invited player in.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games import hooks, schedule
from games.models import Match, MatchStatus
from games.services.lifecycle import match_create
from games.services.runners import locked
from moderation.eligibility import refuse_direct_challenge
from nardy import match as engine
from ratings.selectors import ratings_of
from realtime.groups import notify_user


def challenge_payload(match: Match, creator_rating: int) -> dict[str, Any]:
    return {
        "type": "challenge",
        "match_id": match.pk,
        "from": match.creator.username,
        "rating": creator_rating,
        "rules": match.rule_set_name,
        "length": match.length,
        "turn_seconds": match.turn_seconds,
        "move_days": match.move_days,
        "rated": match.rated,
        "cube": match.doubling_cube,  # the other rule options are on the challenge page
        "expires_in": max(0, round((match.expires_at - timezone.now()).total_seconds())),
        "accept_url": reverse("match_accept", kwargs={"match_id": match.pk}),
        "decline_url": reverse("challenge_decline", kwargs={"match_id": match.pk}),
    }


def challenge_direct(*, creator, invited, **settings_chosen: Any) -> Match:
    """Challenge `invited` with the settings of the Play form (match_create's keywords)."""
    refuse_direct_challenge(creator, invited)
    expires_at = timezone.now() + timedelta(seconds=settings.DIRECT_CHALLENGE_SECONDS)
    with transaction.atomic():
        match = match_create(
            creator=creator, private=True, invited=invited, expires_at=expires_at,
            **settings_chosen,
        )  # fmt: skip
        expires_at = match.expires_at  # a correspondence challenge waits days
        notify_user(
            invited.pk, challenge_payload(match, ratings_of([creator.pk])[creator.pk].value)
        )
    if not match.correspondence:
        # A correspondence challenge's days are left to the beat's sweep (games/tasks.py): an
        # eta task that far ahead outlives the broker's visibility timeout.
        schedule.challenge_expiry(match.pk, expires_at)
    match_id, creator_id, invited_id = match.pk, creator.pk, invited.pk
    transaction.on_commit(
        lambda: hooks.announce_challenge_sent(match_id, creator_id, invited_id), robust=True
    )
    return match


def challenge_decline(*, user, match_id: int) -> Match:
    """The challenged player says no: the challenge is cancelled and its creator told. Locks the
    match row."""
    with transaction.atomic():
        context = locked(match_id)
        match = context.match
        context.run(lambda state: engine.decline_challenge(state, user=user.pk, now=context.now))
        context.save()
        notify_user(
            match.creator_id,
            {"type": "challenge_declined", "match_id": match.pk, "by": user.username},
        )
        notify_user(user.pk, {"type": "challenge_gone", "match_id": match.pk})
    return match


def challenges_expire(*, match_id: int | None = None) -> int:
    """Cancel direct challenges past their time (one, or all that are due). Locks each row."""
    due = Match.objects.filter(status=MatchStatus.OPEN, expires_at__lte=timezone.now())
    if match_id is not None:
        due = due.filter(pk=match_id)
    expired = 0
    for pk in list(due.values_list("pk", flat=True)):
        with transaction.atomic():
            context = locked(pk)
            match = context.match
            if match.status != MatchStatus.OPEN or match.expires_at > context.now:
                continue
            now = context.now
            context.run(lambda state, now=now: engine.cancel(state, now=now))
            context.save()
            if match.invited_id is not None:
                notify_user(match.invited_id, {"type": "challenge_gone", "match_id": match.pk})
            expired += 1
    return expired
