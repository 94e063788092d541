"""learning's reads: an exercise's page data, the next exercise of the stream or of a player's
own match, and a player's statistics for the profile (a few indexed rows however many matches:
bench/profiles.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef

from accounts.models import BOT_LEVELS, BotLevel
from learning.glicko2 import INITIAL_RATING
from learning.models import Attempt, Exercise, ExerciseRating, MatchPerformance, StatKind, StatLine
from nardy.analysis import PR_SCALE
from nardy.sequences import legal_turns
from ratings.chart import rating_chart

CHART_MATCHES = 100  # the performance chart's latest analysed matches


def legal_sequences(exercise: Exercise, rules) -> list[list[list[int]]]:  # noqa: ANN001
    """Every complete legal turn of the position as its steps [[from, to, die], ...]: the page
    offers the steps that begin one of them (as the match page offers the server's)."""
    turns = legal_turns(
        tuple(exercise.board), exercise.side, tuple(exercise.dice), exercise.first_turn, rules
    )
    return [
        [[s.source, s.destination, s.die] for s in steps]
        for sequences in turns.values()
        for steps in sequences
    ]


def own_exercises(user, match_id: int) -> list[Exercise]:  # noqa: ANN001
    """The player's exercises from one match, in the order played."""
    if not user.is_authenticated:
        return []
    return list(
        Exercise.objects.filter(player_id=user.pk, match_id=match_id)
        .order_by("game_number", "turn_number")
        .only("pk", "game_number", "turn_number", "mark")
    )


def rating_of(user) -> ExerciseRating | None:  # noqa: ANN001
    if not user.is_authenticated or user.is_guest:
        return None
    return ExerciseRating.objects.filter(user_id=user.pk).first()


def next_public(user, *, phase: str = "", rule_set: str = "", after: int = 0) -> Exercise | None:  # noqa: ANN001
    """The public exercise nearest the person's exercise rating that they have not answered and
    that is not from their own matches; for visitors and guests (nothing stored) the next one
    after `after` by number, from the first again at the end."""
    public = Exercise.objects.filter(public=True, match__annulled_at__isnull=True)
    if phase:
        public = public.filter(phase=phase)
    if rule_set:
        public = public.filter(rule_set_name=rule_set)
    if not user.is_authenticated or user.is_guest:
        return public.filter(pk__gt=after).order_by("pk").first() or public.order_by("pk").first()
    mine = rating_of(user)
    rating = mine.rating if mine else INITIAL_RATING
    # `after`: the exercise just skipped, not offered again at once.
    fresh = (
        public.exclude(player_id=user.pk)
        .exclude(pk=after)
        .exclude(Exists(Attempt.objects.filter(user_id=user.pk, exercise=OuterRef("pk"))))
    )
    above = fresh.filter(rating__gte=rating).order_by("rating", "pk").first()
    below = fresh.filter(rating__lt=rating).order_by("-rating", "-pk").first()
    if above is None or below is None:
        return above or below
    return above if above.rating - rating <= rating - below.rating else below


@dataclass(frozen=True)
class Line:
    key: object  # the length, or the computer level's name in the page's language
    played: int
    won: int
    mars_given: int
    mars_taken: int

    @property
    def win_rate(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0


def player_statistics(user) -> dict[str, Any]:  # noqa: ANN001
    """The profile's statistics: results per match length and computer level, the performance
    rating per phase, and the chart of the latest CHART_MATCHES analysed matches' ratings."""
    lines = list(StatLine.objects.filter(user=user))
    lengths = sorted(
        (line for line in lines if line.kind == StatKind.LENGTH), key=lambda line: int(line.key)
    )
    levels = sorted(
        (line for line in lines if line.kind == StatKind.LEVEL and line.key in BOT_LEVELS),
        key=lambda line: BOT_LEVELS.index(line.key),
    )
    phases = {line.key: line for line in lines if line.kind == StatKind.PHASE}
    latest = list(
        MatchPerformance.objects.filter(user=user)
        .order_by("-finished_at", "-match")
        .values_list("finished_at", "pr")[:CHART_MATCHES]
    )[::-1]
    return {
        "lengths": [_line(line) for line in lengths],
        "levels": [_line(line, dict(BotLevel.choices).get(line.key, line.key)) for line in levels],
        "phases": {
            key: round(PR_SCALE * line.equity_lost / line.decisions, 1)
            for key, line in phases.items()
            if line.decisions
        },
        "chart": rating_chart(latest),
        "performances": len(latest),
    }


def _line(line: StatLine, name: object = None) -> Line:
    return Line(name or line.key, line.played, line.won, line.mars_given, line.mars_taken)
