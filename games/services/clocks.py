"""Timed play and housekeeping: enforcing turn deadlines, closing matches nobody plays.

Called by Celery tasks (games/tasks.py) with ids and the turn they were scheduled for; each locks
the Match row and does nothing when the match has moved on. The timeout rules (the auto-move and
the third-timeout loss) are the engine's (nardy/match).
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone

from config import metrics
from games.models import Game, Match, MatchStatus, Phase, TimeControl
from games.services.runners import locked
from nardy import match as engine
from realtime.errors import CommandError

TIMEOUTS_TO_LOSE = engine.TIMEOUTS_TO_LOSE


def _locked_unless_busy(match_id: int):
    """Lock the match, skipping it (None) when another transaction holds it right now."""
    if not Match.objects.select_for_update(skip_locked=True).filter(pk=match_id).exists():
        return None
    return locked(match_id)


def game_deadline_enforce(
    *, match_id: int, game_id: int, turn_number: int, skip_locked: bool = False
) -> float | None:
    """The server plays the turn of a mover whose time ran out and counts a timeout; the third
    loses the match. Locks the match row (`skip_locked` for the sweep: a row being changed now is
    left to the next sweep). Does nothing when that turn is over already (a last-moment step won
    the race, or another enforcer did it) and never acts before the deadline: then it returns the
    seconds still to wait; otherwise None."""
    with transaction.atomic():
        try:
            context = _locked_unless_busy(match_id) if skip_locked else locked(match_id)
        except CommandError:
            return None  # the match is gone
        if context is None:
            return None  # being changed right now: the next sweep looks again
        game = context.game
        if context.open_turn() != (game_id, turn_number) or game.turn_deadline is None:
            return None
        remaining = (game.turn_deadline - context.now).total_seconds()
        if remaining > 0:
            return remaining
        transaction.on_commit(lambda: metrics.deadline_enforced(-remaining, by_sweep=skip_locked))
        context.run(
            lambda state: engine.timeout(
                state, dice=context.dice, now=context.now, **context.automation()
            )
        )
        context.save()
    return None


def game_deadlines_due(*, limit: int = 200) -> list[tuple[int, int, int]]:
    """(match id, game id, turn number) of open turns whose deadline has passed."""
    return list(
        Game.objects.filter(
            turn_deadline__lte=timezone.now(),
            phase__in=[Phase.ROLL, Phase.MOVE],
            match__status=MatchStatus.ACTIVE,
        )
        .order_by("turn_deadline")
        .values_list("match_id", "pk", "turn_number")[:limit]
    )


STALE_AFTER = timedelta(hours=24)


def matches_close_stale() -> int:
    """Close what nobody touches any more (docs/features.md "How play works"): an active live match
    with no action for STALE_AFTER is aborted, unrated; an open challenge that old is cancelled.
    Each is locked with skip_locked, so a match being played right now is left alone."""
    cutoff = timezone.now() - STALE_AFTER
    closed = 0
    for match_id in (
        Match.objects.filter(
            status__in=[MatchStatus.ACTIVE, MatchStatus.OPEN], last_activity_at__lt=cutoff
        )
        # A correspondence match goes days between moves: its turns' deadlines and its
        # challenge's expiry close it (docs/rules.md, Platform rules, Correspondence).
        .exclude(time_control=TimeControl.CORRESPONDENCE)
        .values_list("pk", flat=True)[:500]
    ):
        with transaction.atomic():
            context = _locked_unless_busy(match_id)
            if context is None or context.match.last_activity_at >= cutoff:
                continue
            closing = {MatchStatus.OPEN: engine.cancel, MatchStatus.ACTIVE: engine.abort}
            if context.match.status not in closing:
                continue
            context.run(partial(closing[context.match.status], now=context.now))
            context.save()
            closed += 1
    return closed
