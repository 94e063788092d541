"""A player's record for the profile page: rating, peak, history chart, results,
mars given and taken, timeouts, abandoned matches, win rate per rule set, head-to-head. Reads
only, and the same few indexed reads however many matches the player has: the counts
are kept by ratings/counts.py, the chart picks its points by number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Q

from ratings import chart, elo
from ratings.models import HeadToHead, Rating, RatingChange, RecordCount

# The chart is kept this long under the values every new or reverted rated match changes.
CHART_SECONDS = 3600


@dataclass(frozen=True)
class RuleSetRecord:
    name: Any  # the stored rule set name; the profile page shows games' label for it
    played: int
    won: int

    @property
    def win_rate(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0


@dataclass(frozen=True)
class Record:
    rating: Rating | None
    chart: chart.Chart | None
    won: int
    lost: int
    mars_given: int
    mars_taken: int
    timeouts: int
    # Matches lost by staying away past the reconnect window (docs/rules.md, Platform rules).
    abandoned: int
    rule_sets: list[RuleSetRecord]
    head_to_head: tuple[int, int] | None  # (player's wins, viewer's wins) between them

    @property
    def provisional(self) -> bool:
        return self.rating is None or self.rating.provisional

    @property
    def peak(self) -> int:
        return elo.shown(self.rating.peak) if self.rating else int(elo.INITIAL_RATING)

    @property
    def win_rate(self) -> int:
        played = self.won + self.lost
        return round(100 * self.won / played) if played else 0


# The chart's points, each looked up by (player, number) in the unique index: the LATERAL
# subquery with its LIMIT runs once per number, and PostgreSQL cannot turn it into a join that
# reads the whole history, whatever plan it keeps for the prepared statement (config/settings/).
# Kept for `user_id = $1 AND number IN (...)`, that plan read every change of the player through
# the user index (0.6 s at 100,000: the average player has few); 400 OR-ed pairs through the ORM
# cost 80 ms of Python. The first and last kept changes stand in for reverted first and last ones.
PICKED_CHANGES = """
(SELECT change.number, change.created_at, change.before, change.after
 FROM unnest(%(numbers)s::integer[]) AS picked(number)
 CROSS JOIN LATERAL (
     SELECT number, created_at, before, after FROM {table}
     WHERE user_id = %(user)s AND number = picked.number AND reverted_at IS NULL LIMIT 1
 ) AS change)
UNION
(SELECT number, created_at, before, after FROM {table}
 WHERE user_id = %(user)s AND reverted_at IS NULL ORDER BY number LIMIT 1)
UNION
(SELECT number, created_at, before, after FROM {table}
 WHERE user_id = %(user)s AND reverted_at IS NULL ORDER BY number DESC LIMIT 1)
"""


def rating_history(rating: Rating) -> list[tuple[Any, Any]]:
    """(when, rating) from before the first rated match to now, reverted matches left out; at most
    chart.MAX_POINTS of them, picked evenly by number (RatingChange.number, one index probe each):
    the first, the last, and the numbers evenly spaced between. Numbering the whole history with a
    window function on every draw took 0.5 s for 100,000 changes (bench/profiles.py)."""
    total = rating.history_length
    if total <= chart.MAX_POINTS:
        kept = RatingChange.objects.filter(user_id=rating.user_id, reverted_at__isnull=True)
        rows = list(kept.order_by("number").values_list("number", "created_at", "before", "after"))
    else:
        spaces = chart.MAX_POINTS - 1
        numbers = sorted({1 + round(index * (total - 1) / spaces) for index in range(spaces + 1)})
        with connection.cursor() as cursor:
            cursor.execute(
                PICKED_CHANGES.format(table=RatingChange._meta.db_table),
                {"numbers": numbers, "user": rating.user_id},
            )
            rows = sorted(cursor.fetchall())
    if not rows:
        return []
    return [(rows[0][1], rows[0][2])] + [(when, after) for _, when, _, after in rows]


def player_chart(player, rating: Rating | None) -> chart.Chart | None:
    """The rating chart, from the cache when the player's rating row is as it was: applying or
    reverting a rated match changes its rating, experience, history length or last_rated_at
    (ratings.services), so the key changes with the history."""
    if rating is None:
        return None
    key = ":".join(
        map(str, ["chart", player.pk, rating.history_length, rating.matches, rating.experience,
                  rating.rating, rating.last_rated_at and rating.last_rated_at.timestamp()])
    )  # fmt: skip
    return cache.get_or_set(key, lambda: chart.rating_chart(rating_history(rating)), CHART_SECONDS)


def _head_to_head(player, viewer) -> tuple[int, int]:
    """(the player's wins over the viewer, the viewer's over the player): two counter rows."""
    rows = HeadToHead.objects.filter(
        Q(winner=player, loser=viewer) | Q(winner=viewer, loser=player)
    ).values_list("winner_id", "wins")
    wins = dict(rows)
    return wins.get(player.pk, 0), wins.get(viewer.pk, 0)


def player_record(player, viewer=None) -> Record:
    counts = list(
        RecordCount.objects.filter(user=player, played__gt=0).order_by("rule_set_name")
    )  # a row per rule set played (ratings/counts.py)
    rule_sets = [
        RuleSetRecord(row.rule_set_name, row.played, row.won)
        for row in counts
    ]  # fmt: skip
    head_to_head = None
    if viewer is not None and viewer.is_authenticated and viewer.pk != player.pk:
        head_to_head = _head_to_head(player, viewer)
    rating = Rating.objects.filter(user=player).first()
    won = sum(row.won for row in counts)
    return Record(
        rating=rating,
        chart=player_chart(player, rating),
        won=won,
        lost=sum(row.played for row in counts) - won,
        mars_given=sum(row.mars_given for row in counts),
        mars_taken=sum(row.mars_taken for row in counts),
        timeouts=sum(row.timeouts for row in counts),
        abandoned=sum(row.abandoned for row in counts),
        rule_sets=rule_sets,
        head_to_head=head_to_head,
    )


def rating_deltas(player, match_ids: list[int]) -> dict[int, int]:
    """The player's rating change (whole numbers) in each of these matches, when rated."""
    changes = RatingChange.objects.filter(
        user=player, match_id__in=match_ids, reverted_at__isnull=True
    ).only("match_id", "before", "after")
    return {change.match_id: change.shown_delta for change in changes}
