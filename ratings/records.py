"""A player's record for the profile page (issue #13): rating, peak, history chart, results,
mars given and taken, timeouts, win rate per rule set, head-to-head. Reads only; a fixed number of
aggregate queries however many matches the player has.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Case, Count, F, Q, Sum, When, Window
from django.db.models.functions import RowNumber

from games.models import Game, Match, MatchStatus
from ratings import chart, elo
from ratings.models import Rating, RatingChange

# The chart is kept this long under the values every new or reverted rated match changes.
CHART_SECONDS = 3600
# The record's totals: until a game or match of the player ends (records_changed), or a day.
RECORD_SECONDS = 24 * 3600


@dataclass(frozen=True)
class RuleSetRecord:
    name: Any
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


def _finished_matches_of(player) -> Any:
    return Match.objects.filter(Q(creator=player) | Q(opponent=player), status=MatchStatus.FINISHED)


def rating_history(player) -> list[tuple[Any, Any]]:
    """(when, rating) from before the first rated match to now, reverted matches left out; at most
    about chart.MAX_POINTS of them, picked evenly by PostgreSQL (a player with thousands of matches
    does not send them all to be thinned here): the first, the last, and one per equal share."""
    share = chart.MAX_POINTS - 2
    numbered = RatingChange.objects.filter(user=player, reverted_at__isnull=True).annotate(
        number=Window(RowNumber(), order_by=[F("created_at").asc(), F("pk").asc()]),
        total=Window(Count("pk")),
    )
    kept = numbered.annotate(
        bucket=F("number") * share / F("total"),
        previous_bucket=(F("number") - 1) * share / F("total"),
    ).filter(
        Q(total__lte=chart.MAX_POINTS)
        | Q(number=1)
        | Q(number=F("total"))
        | Q(bucket__gt=F("previous_bucket"))
    )
    rows = list(kept.order_by("number").values_list("created_at", "before", "after"))
    if not rows:
        return []
    return [(rows[0][0], rows[0][1])] + [(when, after) for when, _, after in rows]


def player_chart(player, rating: Rating | None) -> chart.Chart | None:
    """The rating chart, from the cache when the player's rating row is as it was: applying or
    reverting a rated match changes its matches, rating and last_rated_at (ratings.services), so
    the key changes with the history. The history's window-function pass over every change was
    the profile's slowest query (51 ms for 10,000 changes, bench/leaderboards.py)."""
    if rating is None:
        return None
    key = ":".join(
        map(str, ["chart", player.pk, rating.matches, rating.experience, rating.rating,
                  rating.last_rated_at and rating.last_rated_at.timestamp()])
    )  # fmt: skip
    return cache.get_or_set(key, lambda: chart.rating_chart(rating_history(player)), CHART_SECONDS)


def _mars(player) -> dict[str, int]:
    # The player won a game when the winning side is the one their seat played (Game.white_seat).
    seat = Case(When(match__creator=player, then=0), default=1)
    won_game = Q(winner_side="w", white_seat=seat) | Q(winner_side="b") & ~Q(white_seat=seat)
    games = Game.objects.filter(Q(match__creator=player) | Q(match__opponent=player), result="mars")
    return games.aggregate(given=Count("pk", filter=won_game), taken=Count("pk", filter=~won_game))


def _version_key(player) -> str:
    # date_joined as well as the id: a key can never outlive its user row into another's.
    return f"record-version:{player.pk}:{player.date_joined.timestamp()}"


def records_changed(*user_ids: int | None) -> None:
    """A game or a match of these players ended (games/services/context.py, after commit), or
    one was annulled: their cached records are stale. A new random version, not a deleted entry:
    a reader that read the old version before this and the rows before the commit stores its
    figures under the old version, where nobody looks any more."""
    from accounts.models import User

    players = User.objects.filter(pk__in=[pk for pk in user_ids if pk is not None])
    versions = {_version_key(p): uuid.uuid4().hex for p in players.only("pk", "date_joined")}
    cache.set_many(versions, RECORD_SECONDS)


def _record_version(player) -> str:
    key = _version_key(player)
    version = cache.get(key)
    if version is None:
        cache.add(key, uuid.uuid4().hex, RECORD_SECONDS)
        version = cache.get(key)
    return version


def _totals(player) -> dict[str, Any]:
    """Results, timeouts, rule sets and mars: aggregates over every finished match and game of
    the player (33 ms and 25 ms for 5,000 matches, bench/leaderboards.py), kept in the cache
    under the player's record version until a game or match of theirs ends."""
    key = f"record:{player.pk}:{_record_version(player)}"
    return cache.get_or_set(key, lambda: _count_totals(player), RECORD_SECONDS)


def _count_totals(player) -> dict[str, Any]:
    timeouts = Case(
        When(creator=player, then=F("timeouts_creator")), default=F("timeouts_opponent")
    )
    per_rule_set = (
        _finished_matches_of(player)
        .values("rule_set_name")
        .annotate(
            played=Count("pk"), won=Count("pk", filter=Q(winner=player)), timeouts=Sum(timeouts)
        )
        .order_by("rule_set_name")
        .values_list("rule_set_name", "played", "won", "timeouts")
    )  # one query: the totals are their sums
    totals: dict[str, Any] = {"won": 0, "lost": 0, "timeouts": 0, "rule_sets": []}
    for name, played, won, timeouts_there in per_rule_set:
        totals["rule_sets"].append((name, played, won))
        totals["won"] += won
        totals["lost"] += played - won
        totals["timeouts"] += timeouts_there or 0
    mars = _mars(player)
    totals["mars_given"], totals["mars_taken"] = mars["given"], mars["taken"]
    return totals


def player_record(player, viewer=None) -> Record:
    totals = _totals(player)
    rule_sets = [
        RuleSetRecord(Match(rule_set_name=name).get_rule_set_name_display(), played, won)
        for name, played, won in totals["rule_sets"]
    ]  # labels in the viewer's language: the cache keeps the names
    head_to_head = None
    if viewer is not None and viewer.is_authenticated and viewer.pk != player.pk:
        between = (
            _finished_matches_of(player)
            .filter(Q(creator=viewer) | Q(opponent=viewer))
            .aggregate(
                player=Count("pk", filter=Q(winner=player)),
                viewer=Count("pk", filter=Q(winner=viewer)),
            )
        )
        head_to_head = (between["player"], between["viewer"])
    rating = Rating.objects.filter(user=player).first()
    return Record(
        rating=rating,
        chart=player_chart(player, rating),
        won=totals["won"],
        lost=totals["lost"],
        mars_given=totals["mars_given"],
        mars_taken=totals["mars_taken"],
        timeouts=totals["timeouts"],
        rule_sets=rule_sets,
        head_to_head=head_to_head,
    )


def rating_deltas(player, match_ids: list[int]) -> dict[int, int]:
    """The player's rating change (whole numbers) in each of these matches, when rated."""
    changes = RatingChange.objects.filter(
        user=player, match_id__in=match_ids, reverted_at__isnull=True
    ).only("match_id", "before", "after")
    return {change.match_id: change.shown_delta for change in changes}
