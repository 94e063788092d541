"""An answer to an exercise (docs/features.md, "Exercises"): the steps are played through the
rules engine from the stored position, the end board is judged by the stored values, and a
person's first answer is recorded; for a public exercise it moves both Glicko-2 ratings
(learning/glicko2.py) and the streak.

Who may answer what: an exercise is its player's; a public one is everyone's while its match is
not annulled. Visitors and guests may answer public ones and see the judgement, but nothing is
stored for them (a guest is one click away: their ratings would be nobody's). Only the first
answer of a person counts; one sent again, from another tab or replayed, is judged and changes
nothing. An exercise from a player's own match is not rated for them (they have seen it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games.models import Match
from learning import glicko2
from learning.models import Attempt, Exercise, ExerciseRating
from learning.positions import ACCEPTED_LOSS, board_key
from nardy.sequences import IllegalMove, Step
from nardy.turn import is_turn_complete, play_step, start_turn
from realtime.errors import CommandError

MAX_STEPS = 4  # a double plays four dice (docs/rules.md, A turn, item 1)


@dataclass(frozen=True)
class Judgement:
    correct: bool
    equity: float
    best: float
    depth: int  # 2: a candidate's value; 1: the 1-ply estimate of an end board outside them
    stored: bool = False  # recorded as this person's first answer
    repeated: bool = False  # answered before: nothing changed
    rating: dict[str, Any] | None = field(default=None)  # before, after, streak

    @property
    def loss(self) -> float:
        return round(max(self.best - self.equity, 0.0), 4)


def visible_exercises(user) -> Any:  # noqa: ANN001
    """The exercises `user` may open: their own, and the public ones of matches not annulled."""
    public = Q(public=True, match__annulled_at__isnull=True)
    if user.is_authenticated:
        return Exercise.objects.filter(public | Q(player_id=user.pk))
    return Exercise.objects.filter(public)


def _steps(raw: object) -> list[Step]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_STEPS:
        raise CommandError("bad_answer", _("An answer is a list of one to four steps."))
    steps = []
    for item in raw:
        if (not isinstance(item, list) or len(item) != 3
                or not all(type(value) is int and 0 <= value <= 24 for value in item)):  # fmt: skip
            raise CommandError("bad_answer", _("A step is three whole numbers: from, to, die."))
        steps.append(Step(*item))
    return steps


def answer_board(exercise: Exercise, rules, raw_steps: object) -> tuple[int, ...]:  # noqa: ANN001
    """The end board of the answer's steps played from the exercise's position; CommandError
    when they are not a complete legal turn of it."""
    state = start_turn(
        exercise.board, exercise.side, tuple(exercise.dice), exercise.first_turn, rules
    )
    try:
        for step in _steps(raw_steps):
            state = play_step(state, step)
    except IllegalMove as error:
        raise CommandError(
            "illegal", _("That is not a legal turn: %(why)s") % {"why": error}
        ) from None
    if not is_turn_complete(state):
        raise CommandError("incomplete", _("Play the whole roll before answering."))
    return state.board


def judge(exercise: Exercise, end: tuple[int, ...]) -> Judgement:
    """Right when the end board is a candidate within ACCEPTED_LOSS of the best, by the stored
    values (learning/positions.py)."""
    best = exercise.candidates[0][1]
    for board, value in exercise.candidates:
        if tuple(board) == end:
            return Judgement(best - value < ACCEPTED_LOSS - 1e-9, value, best, 2)
    return Judgement(False, exercise.estimates.get(board_key(end), best), best, 1)


def exercise_answer(*, user, exercise_id: int, steps: object) -> Judgement:  # noqa: ANN001
    """Judge an answer and, for a signed-in person's first, record it. Locks the person's rating
    row, then the exercise's (always in that order), so two answers at once are counted one
    after the other and the second finds the first."""
    exercise = visible_exercises(user).filter(pk=exercise_id).first()
    if exercise is None:
        raise CommandError("not_found", _("There is no such exercise."))
    rules = Match.objects.get(pk=exercise.match_id).rules
    end = answer_board(exercise, rules, steps)
    judgement = judge(exercise, end)
    if not user.is_authenticated or user.is_guest:
        return judgement
    with transaction.atomic():
        ExerciseRating.objects.get_or_create(user_id=user.pk)
        mine = ExerciseRating.objects.select_for_update().get(user_id=user.pk)
        exercise = Exercise.objects.select_for_update().get(pk=exercise.pk)
        if Attempt.objects.filter(user_id=user.pk, exercise=exercise).exists():
            return replace(judgement, repeated=True)
        rating = None
        before = mine.rating
        if exercise.public and exercise.player_id != user.pk:
            rating = _rate(mine, exercise, judgement.correct)
        Attempt.objects.create(
            user_id=user.pk, exercise=exercise, correct=judgement.correct,
            answer_board=list(end),
            rating_before=before if rating else None, rating_after=mine.rating if rating else None,
        )  # fmt: skip
    return replace(judgement, stored=True, rating=rating)


def _rate(mine: ExerciseRating, exercise: Exercise, solved: bool) -> dict[str, Any]:
    before = mine.rating
    player, rated = glicko2.attempt(mine.glicko, exercise.glicko, solved)
    mine.rating, mine.deviation, mine.volatility = (
        player.rating,
        player.deviation,
        player.volatility,
    )
    mine.attempts += 1
    mine.streak = mine.streak + 1 if solved else 0
    mine.best_streak = max(mine.best_streak, mine.streak)
    mine.save()
    exercise.rating, exercise.deviation = rated.rating, rated.deviation
    exercise.volatility = rated.volatility
    exercise.attempts += 1
    exercise.solved += int(solved)
    exercise.save(update_fields=["rating", "deviation", "volatility", "attempts", "solved"])
    return {"before": round(before), "after": round(mine.rating),
            "change": round(mine.rating) - round(before), "streak": mine.streak}  # fmt: skip
