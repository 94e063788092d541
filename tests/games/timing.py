"""Bringing a turn's deadline close, for timed-play tests (the shortest real turn is 30 s)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import Game
from games.tasks import schedule_deadline


def expire_in(match, seconds: float, *, schedule: bool = True) -> Game:
    """Move the open turn's clock so its deadline is `seconds` from now, and (like the services
    do after commit) schedule the Celery task for it."""
    game = match.games.order_by("-number").first()
    now = timezone.now()
    game.turn_deadline = now + timedelta(seconds=seconds)
    game.turn_started_at = game.turn_deadline - timedelta(seconds=match.turn_seconds)
    game.save(update_fields=["turn_deadline", "turn_started_at"])
    if schedule:
        schedule_deadline(match.pk, game.pk, game.turn_number, game.turn_deadline)
    return game
