"""Answers sent at once (learning/services/answers.py): the person's rating row's lock, then the
exercise's, count them one after the other, so four tabs sending the same answer make one
attempt and one rating change, and two people at once both count."""

from __future__ import annotations

import pytest

from learning.models import Attempt, Exercise, ExerciseRating
from learning.services.answers import exercise_answer
from tests.factories import make_user
from tests.learning.positions import exercise_of_position, steps_to
from tests.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_person_answering_from_four_tabs_counts_once():
    exercise = exercise_of_position(make_user("random_one"))
    solver = make_user("solver")
    right = steps_to(exercise, exercise.candidates[0][0])
    answers = []

    def answer() -> None:
        answers.append(exercise_answer(user=solver, exercise_id=exercise.pk, steps=right))

    run_together(*[answer] * 4)
    assert sorted(judged.stored for judged in answers) == [False, False, False, True]
    assert Attempt.objects.filter(user=solver).count() == 1
    rating = ExerciseRating.objects.get(user=solver)
    assert rating.attempts == 1 and rating.streak == 1
    assert Exercise.objects.get(pk=exercise.pk).attempts == 1


def test_two_people_at_once_both_count():
    exercise = exercise_of_position(make_user("random_one"))
    first, second = make_user("first_solver"), make_user("second_solver")
    right = steps_to(exercise, exercise.candidates[0][0])
    run_together(
        lambda: exercise_answer(user=first, exercise_id=exercise.pk, steps=right),
        lambda: exercise_answer(user=second, exercise_id=exercise.pk, steps=right),
    )
    stored = Exercise.objects.get(pk=exercise.pk)
    assert stored.attempts == 2 and stored.solved == 2 and stored.rating < 1500
