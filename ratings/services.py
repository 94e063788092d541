"""Rating writes: applying a rated match's result once, and taking it back when it is annulled.

Both lock the players' Rating rows (`select_for_update`, in user-id order so two matches ending at
once cannot deadlock) and only then look at the match's history rows: whoever comes second waits
for the first to commit and then sees its rows, so a match is applied (or reverted) exactly once
whatever calls it, from however many threads (a Celery worker's and a socket's at once).
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any, TypedDict

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from accounts.models import User
from ratings import elo
from ratings.counts import record_revert_match
from ratings.models import (
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


def _lock_ratings(user_ids: list[int]) -> dict[int, Rating]:
    """The players' Rating rows, created at 1500 when missing, locked in user-id order.

    The missing rows are inserted in user-id order too: two transactions inserting the same two
    new rows in opposite orders would each wait on the other's uncommitted index entry."""
    ordered = sorted(set(user_ids))
    Rating.objects.bulk_create(
        [Rating(user_id=user_id) for user_id in ordered], ignore_conflicts=True
    )
    rows = Rating.objects.select_for_update().filter(user_id__in=ordered).order_by("user_id")
    return {row.user_id: row for row in rows}


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
    """Apply a finished rated match (FIBS formula, ratings/elo.py) to both players, once.

    Call it inside the transaction that ends the match. Locks both Rating rows; a second call for
    the same match (in this transaction or any other) changes nothing and returns the changes
    already made (empty when the match was reverted since). A correspondence match moves the
    correspondence ratings instead (`correspondence_rating_apply`)."""
    if getattr(match, "correspondence", False):
        return correspondence_rating_apply(match=match, winner_id=winner_id, loser_id=loser_id)
    with transaction.atomic():
        ratings = _lock_ratings([winner_id, loser_id])
        done = list(RatingChange.objects.filter(match_id=match.pk, reverted_at__isnull=True))
        if done or RatingChange.objects.filter(match_id=match.pk).exists():
            return {change.user_id: _applied(change) for change in done}
        winner, loser = ratings[winner_id], ratings[loser_id]
        result = elo.match_result(
            winner=elo.Side(winner.rating, winner.experience),
            loser=elo.Side(loser.rating, loser.experience),
            length=match.length,
        )
        now = match.finished_at or timezone.now()
        counted = not _against_bot([winner_id, loser_id])
        changes = [
            _change(match, winner, loser, result.winner_delta, won=True, now=now),
            _change(match, loser, winner, result.loser_delta, won=False, now=now),
        ]
        for change, row in ((changes[0], winner), (changes[1], loser)):
            row.history_length += 1
            change.number = row.history_length
            row.rating = change.after
            row.peak = max(row.peak, change.after)
            row.experience += match.length
            row.last_rated_at = now
            if counted:
                row.matches += 1
                row.wins += int(change.won)
                _count_period(row.user_id, now, won=change.won, sign=1)
        RatingChange.objects.bulk_create(changes)
        Rating.objects.bulk_update(
            [winner, loser],
            ["rating", "peak", "experience", "matches", "wins", "last_rated_at", "history_length"],
        )
    return {change.user_id: _applied(change) for change in changes}


def _change(match: Any, player: Rating, opponent: Rating, delta: Decimal, *, won: bool, now):
    return RatingChange(
        user_id=player.user_id,
        match_id=match.pk,
        opponent_id=opponent.user_id,
        opponent_rating=opponent.rating,
        before=player.rating,
        after=player.rating + delta,
        delta=delta,
        length=match.length,
        won=won,
        created_at=now,
    )


def _applied(change: RatingChange) -> Applied:
    return Applied(before=change.shown_before, after=change.shown_after, delta=change.shown_delta)


def rating_revert_match(*, match_id: int) -> int:
    """Take back a match's rating changes exactly (an annulled match): each player's
    rating loses that match's delta, experience its length, the matches and wins counters (all
    time, week and month) that match. Changes made by later matches stay as they were (they are
    not recomputed). The match, rated or not, also leaves both players' records
    (ratings/counts.py). Locks both Rating rows; reverting twice changes nothing. Returns the number
    of history rows reverted (0 or 2)."""
    with transaction.atomic():
        if CorrespondenceRatingChange.objects.filter(match_id=match_id).exists():
            record_revert_match(match_id=match_id)
            return correspondence_rating_revert(match_id=match_id)
        user_ids = sorted(
            RatingChange.objects.filter(match_id=match_id).values_list("user_id", flat=True)
        )
        # The Rating rows first, then the records, as at a match's end: no two orders, no deadlock.
        ratings = _lock_ratings(user_ids) if user_ids else {}
        record_revert_match(match_id=match_id)
        if not user_ids:
            return 0
        changes = list(
            RatingChange.objects.select_for_update().filter(
                match_id=match_id, reverted_at__isnull=True
            )
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
                _count_period(change.user_id, change.created_at, won=change.won, sign=-1)
            change.reverted_at = now
        RatingChange.objects.bulk_update(changes, ["reverted_at"])
        for row in ratings.values():
            # The peak and the last rated match come from the history that still counts.
            kept = RatingChange.objects.filter(user_id=row.user_id, reverted_at__isnull=True)
            figures = kept.aggregate(peak=Max("after"), last=Max("created_at"))
            row.peak = max(elo.INITIAL_RATING, row.rating, figures["peak"] or elo.INITIAL_RATING)
            row.last_rated_at = figures["last"]
        Rating.objects.bulk_update(
            list(ratings.values()),
            ["rating", "peak", "experience", "matches", "wins", "last_rated_at"],
        )
    return len(changes)


# --- Correspondence matches: their own board (docs/rules.md, Platform rules, Correspondence) ---
# The same formula and the same once-only locking as above, on CorrespondenceRating rows; no
# peak, no chart, no week or month boards: a correspondence rating is a figure on the profile.


def _lock_correspondence_ratings(user_ids: list[int]) -> dict[int, CorrespondenceRating]:
    ordered = sorted(set(user_ids))
    CorrespondenceRating.objects.bulk_create(
        [CorrespondenceRating(user_id=user_id) for user_id in ordered], ignore_conflicts=True
    )
    rows = (
        CorrespondenceRating.objects.select_for_update()
        .filter(user_id__in=ordered)
        .order_by("user_id")
    )
    return {row.user_id: row for row in rows}


def _applied_correspondence(change: CorrespondenceRatingChange) -> Applied:
    before, after = elo.shown(change.before), elo.shown(change.after)
    return Applied(before=before, after=after, delta=after - before)


def correspondence_rating_apply(*, match: Any, winner_id: int, loser_id: int) -> dict[int, Applied]:
    """Apply a finished rated correspondence match to both players' correspondence ratings,
    once (as `rating_apply_match`)."""
    with transaction.atomic():
        ratings = _lock_correspondence_ratings([winner_id, loser_id])
        changes = CorrespondenceRatingChange.objects.filter(match_id=match.pk)
        if changes.exists():
            done = changes.filter(reverted_at__isnull=True)
            return {change.user_id: _applied_correspondence(change) for change in done}
        winner, loser = ratings[winner_id], ratings[loser_id]
        result = elo.match_result(
            winner=elo.Side(winner.rating, winner.experience),
            loser=elo.Side(loser.rating, loser.experience),
            length=match.length,
        )
        now = match.finished_at or timezone.now()
        counted = not _against_bot([winner_id, loser_id])
        made = []
        for row, delta, won in (
            (winner, result.winner_delta, True),
            (loser, result.loser_delta, False),
        ):
            made.append(
                CorrespondenceRatingChange(
                    user_id=row.user_id, match_id=match.pk, before=row.rating,
                    after=row.rating + delta, delta=delta, length=match.length, won=won,
                    created_at=now,
                )
            )  # fmt: skip
            row.rating += delta
            row.experience += match.length
            row.last_rated_at = now
            if counted:
                row.matches += 1
                row.wins += int(won)
        CorrespondenceRatingChange.objects.bulk_create(made)
        CorrespondenceRating.objects.bulk_update(
            [winner, loser], ["rating", "experience", "matches", "wins", "last_rated_at"]
        )
    return {change.user_id: _applied_correspondence(change) for change in made}


def correspondence_rating_revert(*, match_id: int) -> int:
    """Take back a correspondence match's rating changes exactly (an annulled match), once."""
    with transaction.atomic():
        user_ids = sorted(
            CorrespondenceRatingChange.objects.filter(match_id=match_id).values_list(
                "user_id", flat=True
            )
        )
        ratings = _lock_correspondence_ratings(user_ids)
        changes = list(
            CorrespondenceRatingChange.objects.select_for_update().filter(
                match_id=match_id, reverted_at__isnull=True
            )
        )
        counted = not _against_bot(user_ids)
        now = timezone.now()
        for change in changes:
            row = ratings[change.user_id]
            row.rating -= change.delta
            row.experience -= change.length
            if counted:
                row.matches -= 1
                row.wins -= int(change.won)
            change.reverted_at = now
        CorrespondenceRatingChange.objects.bulk_update(changes, ["reverted_at"])
        CorrespondenceRating.objects.bulk_update(
            list(ratings.values()), ["rating", "experience", "matches", "wins"]
        )
    return len(changes)
