"""Rating writes: applying a rated match's result once, and taking it back when it is annulled.

Both lock the players' rows of the match's board (`Board`: live play's Rating rows or the
correspondence board's; `select_for_update`, in user-id order so two matches ending at once
cannot deadlock) and only then look at the match's history rows: whoever comes second waits for
the first to commit and then sees its rows, so a match is applied (or reverted) exactly once
whatever calls it, from however many threads (a Celery worker's and a socket's at once).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypedDict

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from accounts.models import User
from ratings import elo
from ratings.counts import record_revert_match
from ratings.models import (
    BoardChange,
    CorrespondenceRating,
    CorrespondenceRatingChange,
    Period,
    PeriodWins,
    Rating,
    RatingChange,
)


class Applied(TypedDict):
    """One player's change as pages and the `match_over` event show it (whole numbers, the
    delta being after − before as shown; docs/protocol.md)."""

    before: int
    after: int
    delta: int


@dataclass(frozen=True)
class Board:
    """A rating board's two tables: the players' rows and the history of changes. Live play's
    board also keeps each player's peak, a numbered history (the rating chart) and the week and
    month counters; the correspondence board (docs/rules.md, Platform rules, Correspondence) is
    a figure on the profile, by the same formula and the same once-only locking."""

    ratings: type[Rating] | type[CorrespondenceRating]
    changes: type[RatingChange] | type[CorrespondenceRatingChange]
    live: bool


LIVE = Board(Rating, RatingChange, live=True)
CORRESPONDENCE = Board(CorrespondenceRating, CorrespondenceRatingChange, live=False)
# The columns of a board's rows that applying or reverting a match writes.
COUNTED_FIELDS = ["rating", "experience", "matches", "wins", "last_rated_at"]
LIVE_FIELDS = [*COUNTED_FIELDS, "peak", "history_length"]


def _lock_ratings(board: Board, user_ids: list[int]) -> dict[int, Any]:
    """The players' rows of `board`, created at 1500 when missing, locked in user-id order.

    The missing rows are inserted in user-id order too: two transactions inserting the same two
    new rows in opposite orders would each wait on the other's uncommitted index entry."""
    ordered = sorted(set(user_ids))
    board.ratings.objects.bulk_create(
        [board.ratings(user_id=user_id) for user_id in ordered], ignore_conflicts=True
    )
    rows = board.ratings.objects.select_for_update().filter(user_id__in=ordered)
    return {row.user_id: row for row in rows.order_by("user_id")}


def period_starts(moment: datetime.datetime) -> dict[str, datetime.date]:
    """The calendar week (from Monday) and month holding `moment`, in the site's time zone."""
    day = timezone.localtime(moment).date()
    return {
        Period.WEEK: day - datetime.timedelta(days=day.weekday()),
        Period.MONTH: day.replace(day=1),
    }


def _count_period(user_id: int, moment: datetime.datetime, *, won: bool, sign: int) -> None:
    for period, starts_on in period_starts(moment).items():
        PeriodWins.objects.bulk_create(
            [PeriodWins(user_id=user_id, period=period, starts_on=starts_on)], ignore_conflicts=True
        )
        PeriodWins.objects.filter(user_id=user_id, period=period, starts_on=starts_on).update(
            wins=F("wins") + sign * int(won), matches=F("matches") + sign
        )


def _against_bot(user_ids: list[int]) -> bool:
    """A match against the computer moves ratings but stays out of the wins boards' counters:
    bots never appear there, and beating them is no achievement to rank."""
    return User.objects.filter(pk__in=user_ids, is_bot=True).exists()


def rating_apply_match(*, match: Any, winner_id: int, loser_id: int) -> dict[int, Applied]:
    """Apply a finished rated match (FIBS formula, ratings/elo.py) to both players, once: a
    correspondence match on the correspondence board, any other on live play's.

    Call it inside the transaction that ends the match. Locks both players' rows; a second call
    for the same match (in this transaction or any other) changes nothing and returns the
    changes already made (empty when the match was reverted since)."""
    board = CORRESPONDENCE if getattr(match, "correspondence", False) else LIVE
    with transaction.atomic():
        ratings = _lock_ratings(board, [winner_id, loser_id])
        made = board.changes.objects.filter(match_id=match.pk)
        if made.exists():
            return {change.user_id: _applied(change) for change in made.filter(reverted_at=None)}
        winner, loser = ratings[winner_id], ratings[loser_id]
        result = elo.match_result(
            winner=elo.Side(winner.rating, winner.experience),
            loser=elo.Side(loser.rating, loser.experience),
            length=match.length,
        )
        now = match.finished_at or timezone.now()
        # Every change from the ratings before the match, before any row moves.
        changes = [
            _change(board, match, winner, loser, result.winner_delta, won=True, now=now),
            _change(board, match, loser, winner, result.loser_delta, won=False, now=now),
        ]
        counted = not _against_bot([winner_id, loser_id])
        for change, row in zip(changes, (winner, loser), strict=True):
            row.rating = change.after
            row.experience += match.length
            row.last_rated_at = now
            if counted:
                row.matches += 1
                row.wins += int(change.won)
            if board.live:
                row.history_length += 1
                change.number = row.history_length
                row.peak = max(row.peak, change.after)
                if counted:
                    _count_period(row.user_id, now, won=change.won, sign=1)
        board.changes.objects.bulk_create(changes)
        board.ratings.objects.bulk_update(
            [winner, loser], LIVE_FIELDS if board.live else COUNTED_FIELDS
        )
    return {change.user_id: _applied(change) for change in changes}


def _change(board: Board, match: Any, player: Any, opponent: Any, delta: Decimal, *, won: bool,
            now: datetime.datetime) -> Any:  # fmt: skip
    change = board.changes(
        user_id=player.user_id, match_id=match.pk, before=player.rating,
        after=player.rating + delta, delta=delta, length=match.length, won=won, created_at=now,
    )  # fmt: skip
    if board.live:  # the history the profile lists names the opponent and their rating
        change.opponent_id, change.opponent_rating = opponent.user_id, opponent.rating
    return change


def _applied(change: BoardChange) -> Applied:
    return Applied(before=change.shown_before, after=change.shown_after, delta=change.shown_delta)


def rating_revert_match(*, match_id: int) -> int:
    """Take back a match's rating changes exactly (an annulled match), on the board it moved:
    each player's rating loses that match's delta, experience its length, the matches and wins
    counters (all time and, on live play's board, week and month) that match. Changes made by
    later matches stay as they were (they are not recomputed). The match, rated or not, also
    leaves both players' records (ratings/counts.py). Locks both players' rows; reverting twice
    changes nothing. Returns the number of history rows reverted (0 or 2)."""
    with transaction.atomic():
        board = (
            CORRESPONDENCE
            if CorrespondenceRatingChange.objects.filter(match_id=match_id).exists()
            else LIVE
        )
        user_ids = sorted(
            board.changes.objects.filter(match_id=match_id).values_list("user_id", flat=True)
        )
        # The rating rows first, then the records, as at a match's end: no two orders, no deadlock.
        ratings = _lock_ratings(board, user_ids) if user_ids else {}
        record_revert_match(match_id=match_id)
        if not user_ids:
            return 0
        changes = list(
            board.changes.objects.select_for_update().filter(match_id=match_id, reverted_at=None)
        )
        now = timezone.now()
        counted = not _against_bot(user_ids)
        for change in changes:
            row = ratings[change.user_id]
            row.rating -= change.delta
            row.experience -= change.length
            if counted:
                row.matches -= 1
                row.wins -= int(change.won)
                if board.live:
                    _count_period(change.user_id, change.created_at, won=change.won, sign=-1)
            change.reverted_at = now
        board.changes.objects.bulk_update(changes, ["reverted_at"])
        for row in ratings.values():
            # The peak and the last rated match come from the history that still counts.
            kept = board.changes.objects.filter(user_id=row.user_id, reverted_at=None)
            figures = kept.aggregate(peak=Max("after"), last=Max("created_at"))
            row.last_rated_at = figures["last"]
            if board.live:
                peak = figures["peak"] or elo.INITIAL_RATING
                row.peak = max(elo.INITIAL_RATING, row.rating, peak)
        board.ratings.objects.bulk_update(
            list(ratings.values()), [*COUNTED_FIELDS, "peak"] if board.live else COUNTED_FIELDS
        )
    return len(changes)
