"""An arena you joined starts in a minute (the bell's `arena_starting`).

Read from the tournaments' rows by a beat sweep rather than a timer per arena: one indexed query
(the tournaments' `status, starts_at` index) every ARENA_NOTICE_SWEEP_SECONDS finds the arenas
starting within ARENA_NOTICE_SECONDS, and each joined player is told once (the dedupe key), so a
sweep lost or run twice, or a player joining within the minute, is told all the same.
"""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from notifications.models import Kind
from notifications.services import notify_many
from tournaments.models import Status, Tournament

ARENA_NOTICE_SECONDS = 60


def arenas_starting_announce() -> int:
    """Tell the joined players of every arena starting within ARENA_NOTICE_SECONDS; returns how
    many were told."""
    now = timezone.now()
    starting = Tournament.objects.filter(
        status=Status.SCHEDULED,
        starts_at__gt=now,
        starts_at__lte=now + timedelta(seconds=ARENA_NOTICE_SECONDS),
    ).prefetch_related("players")
    told = 0
    for tournament in starting:
        players = [
            player.user_id
            for player in tournament.players.all()
            if not (player.withdrawn or player.removed)
        ]
        told += len(
            notify_many(
                recipient_ids=players,
                kind=Kind.ARENA_STARTING,
                payload={
                    "tournament_id": tournament.pk,
                    "name": tournament.name,
                    "starts_at": tournament.starts_at.isoformat(),
                    "url": reverse("tournament", kwargs={"tournament_id": tournament.pk}),
                },
                dedupe_key=f"arena:{tournament.pk}",
            )  # fmt: skip
        )
    return told
