"""Exercises stored from a real analysed match (learning/services/from_analysis.py) and answered
(learning/services/answers.py): the player's own mistakes, the public stream's blunders with
one answer, Glicko-2 per attempt, and the hostile cases: someone else's exercise, an answer
replayed or sent twice, wrong-typed and huge payloads, guests, an annulled or deleted match."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from learning.models import Attempt, Exercise, ExerciseRating, MatchPerformance, StatLine
from learning.positions import ACCEPTED_LOSS, CLEAR_MARGIN
from learning.selectors import legal_sequences, next_public
from learning.services.answers import exercise_answer, judge
from learning.services.from_analysis import learning_from_analysis
from nardy.analysis import BLUNDER, MISTAKE
from realtime.errors import CommandError
from tests.factories import make_user
from tests.learning.positions import steps_to

pytestmark = pytest.mark.django_db


def test_the_analysis_stores_the_players_mistakes_once(analysed_match):
    match, strong, weak = analysed_match
    report = match.analysis.result
    weak_seat = match.seat_of(weak.pk)
    marked = [row for row in report["turns"] if row["seat"] == weak_seat
              and row["mark"] in (MISTAKE, BLUNDER) and not row["forced"]]  # fmt: skip
    mine = Exercise.objects.filter(player=weak, match=match)
    assert 0 < mine.count() <= len(marked)
    for exercise in mine:
        best, *others = exercise.candidates
        assert all(best[1] >= value for _, value in others)
        # The analysis' values, as stored: the played turn is a candidate at its 2-ply value.
        played = [value for board, value in exercise.candidates if board == exercise.played_board]
        assert played and abs(played[0] - exercise.played_equity) < 1e-3
        assert exercise.loss >= 0.08 - 1e-9 and exercise.mark in (MISTAKE, BLUNDER)
        if exercise.public:
            assert exercise.mark == BLUNDER and best[1] - others[0][1] >= CLEAR_MARGIN - 1e-9
    # The statistics heard of the end and of the analysis (learning/hook_answers.py).
    for user in (strong, weak):
        line = StatLine.objects.get(user=user, kind="length", key=str(match.length))
        assert line.played == 1 and line.won == int(match.winner_id == user.pk)
        seat = match.seat_of(user.pk)
        decisions = [row for row in report["turns"] if row["seat"] == seat and not row["forced"]
                     and row["loss"] is not None]  # fmt: skip
        phases = StatLine.objects.filter(user=user, kind="phase")
        assert sum(phases.values_list("decisions", flat=True)) == len(decisions)
        lost = sum(phases.values_list("equity_lost", flat=True))
        assert lost == pytest.approx(sum(row["loss"] for row in decisions), abs=1e-6)
        performance = MatchPerformance.objects.get(user=user, match=match)
        assert performance.pr == report["totals"][seat]["pr"]
    # Stored once: the hook again (a redelivered signal) adds nothing, changes no counter.
    count, phases = Exercise.objects.count(), list(StatLine.objects.values_list("decisions"))
    learning_from_analysis(match_id=match.pk)
    assert Exercise.objects.count() == count
    assert list(StatLine.objects.values_list("decisions")) == phases
    assert MatchPerformance.objects.filter(match=match).count() == 2


def test_a_right_and_a_wrong_answer_to_ones_own_mistake(make_exercise):
    weak = make_user("random_one")
    exercise = make_exercise(weak, public=False)
    wrong = exercise_answer(
        user=weak, exercise_id=exercise.pk, steps=steps_to(exercise, exercise.played_board)
    )
    assert not wrong.correct and wrong.loss == pytest.approx(exercise.loss, abs=1e-3)
    assert wrong.stored and wrong.rating is None  # one's own match is not rated
    again = exercise_answer(user=weak, exercise_id=exercise.pk,
                            steps=steps_to(exercise, exercise.candidates[0][0]))  # fmt: skip
    assert again.correct and again.repeated and not again.stored and again.loss == 0
    assert Attempt.objects.filter(user=weak).count() == 1


def test_any_candidate_within_the_threshold_counts(make_exercise):
    make_exercise(make_user("random_one"))
    judged = 0
    for exercise in Exercise.objects.all():
        best = exercise.candidates[0][1]
        for board, value in exercise.candidates:
            judgement = judge(exercise, tuple(board))
            assert judgement.correct == (best - value < ACCEPTED_LOSS) and judgement.depth == 2
            judged += judgement.correct
        outside = next(iter(exercise.estimates), None)
        if outside is not None:  # an end board the analysis did not score at 2-ply: wrong
            board = tuple(int(value) for value in outside.split(","))
            assert not judge(exercise, board).correct and judge(exercise, board).depth == 1
    assert judged == 1  # one clear answer


def test_the_stream_rates_the_first_answer_only(make_exercise):
    solver = make_user("solver")
    make_exercise(make_user("random_one"))
    exercise = next_public(solver)
    assert exercise is not None and exercise.public
    right = steps_to(exercise, exercise.candidates[0][0])
    first = exercise_answer(user=solver, exercise_id=exercise.pk, steps=right)
    assert first.correct and first.stored and first.rating["after"] > first.rating["before"]
    assert first.rating["streak"] == 1
    rating = ExerciseRating.objects.get(user=solver)
    exercise.refresh_from_db()
    assert exercise.rating < 1500 and exercise.attempts == 1 and exercise.solved == 1
    # Replayed: judged again, nothing moves.
    replayed = exercise_answer(user=solver, exercise_id=exercise.pk, steps=right)
    assert replayed.repeated and replayed.rating is None
    assert ExerciseRating.objects.get(user=solver).rating == rating.rating
    exercise.refresh_from_db()
    assert exercise.attempts == 1
    # The stream moves on: the answered exercise is not offered again.
    following = next_public(solver)
    assert following is None or following.pk != exercise.pk


def test_a_wrong_answer_ends_the_streak(make_exercise):
    solver = make_user("solver")
    exercise = make_exercise(make_user("random_one"))
    ExerciseRating.objects.create(user=solver, streak=4, best_streak=4)
    judged = exercise_answer(
        user=solver, exercise_id=exercise.pk, steps=steps_to(exercise, exercise.played_board)
    )
    assert not judged.correct and judged.rating["streak"] == 0
    rating = ExerciseRating.objects.get(user=solver)
    assert rating.streak == 0 and rating.best_streak == 4 and rating.rating < 1500


def test_someone_elses_own_exercise_is_not_found(make_exercise, client):
    private = make_exercise(make_user("random_one"), public=False)
    stranger = make_user("stranger")
    with pytest.raises(CommandError) as refused:
        exercise_answer(user=stranger, exercise_id=private.pk, steps=[[24, 18, 6]])
    assert refused.value.code == "not_found"
    client.force_login(stranger)
    assert client.get(reverse("exercise", kwargs={"exercise_id": private.pk})).status_code == 404
    url = reverse("exercise_answer", kwargs={"exercise_id": private.pk})
    assert client.post(url, "{}", content_type="application/json").status_code == 404
    assert not Attempt.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        "not json", "[]", '{"steps": "24-18"}', '{"steps": []}', '{"steps": [[1, 2]]}',
        '{"steps": [[24, 18, "6"]]}', '{"steps": [[24, 18, 6.0]]}', '{"steps": [[99, 18, 6]]}',
        '{"steps": [[24, 18, 6], [24, 18, 6], [24, 18, 6], [24, 18, 6], [24, 18, 6]]}',
        '{"steps": {"a": {"b": {"c": []}}}}', '{"steps": [[[[[[[]]]]]]]}',
    ],
)  # fmt: skip
def test_wrong_typed_answers_are_refused_and_change_nothing(make_exercise, client, body):
    exercise = make_exercise(make_user("random_one"))
    client.force_login(make_user("solver"))
    url = reverse("exercise_answer", kwargs={"exercise_id": exercise.pk})
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400 and "error" in response.json()
    assert (
        not Attempt.objects.exists() and not ExerciseRating.objects.filter(attempts__gt=0).exists()
    )


def test_a_huge_answer_is_refused_unread(make_exercise, client):
    exercise = make_exercise(make_user("random_one"))
    client.force_login(make_user("solver"))
    url = reverse("exercise_answer", kwargs={"exercise_id": exercise.pk})
    body = json.dumps({"steps": [[24, 18, 6]] * 100_000})
    assert client.post(url, body, content_type="application/json").status_code == 413
    assert not Attempt.objects.exists()


def test_an_illegal_or_unfinished_turn_is_refused(make_exercise):
    exercise = make_exercise(make_user("random_one"))
    solver = make_user("solver")
    legal = steps_to(exercise, exercise.candidates[0][0])
    with pytest.raises(CommandError) as unfinished:
        exercise_answer(user=solver, exercise_id=exercise.pk, steps=legal[:-1])
    assert unfinished.value.code == "incomplete"
    die = next(value for value in range(1, 7) if value not in exercise.dice)  # not rolled
    with pytest.raises(CommandError) as illegal:
        exercise_answer(user=solver, exercise_id=exercise.pk, steps=[[24, 24 - die, die]])
    assert illegal.value.code == "illegal"
    assert not Attempt.objects.exists()


def test_guests_and_visitors_are_judged_but_nothing_is_stored(make_exercise, client):
    exercise = make_exercise(make_user("random_one"))
    guest = make_user("guest_1", is_guest=True)
    right = steps_to(exercise, exercise.candidates[0][0])
    judged = exercise_answer(user=guest, exercise_id=exercise.pk, steps=right)
    assert judged.correct and not judged.stored and judged.rating is None
    url = reverse("exercise_answer", kwargs={"exercise_id": exercise.pk})
    answer = client.post(url, json.dumps({"steps": right}), content_type="application/json").json()
    assert answer["correct"] and not answer["stored"] and answer["origin"]["players"]
    assert not Attempt.objects.exists() and not ExerciseRating.objects.exists()


def test_the_origin_is_hidden_until_answered(make_exercise, client):
    strong, weak = make_user("strong_one"), make_user("random_one")
    exercise = make_exercise(weak, opponent=strong)
    match = exercise.match
    client.force_login(make_user("solver"))
    page = client.get(reverse("exercise", kwargs={"exercise_id": exercise.pk})).content.decode()
    assert strong.username not in page and weak.username not in page
    assert reverse("match_replay", kwargs={"match_id": match.pk}) not in page
    data = json.loads(
        page.split('id="exercise-data" type="application/json">')[1].split("</script>")[0]
    )
    assert data["sequences"] == legal_sequences(exercise, match.rules)


def test_an_annulled_or_deleted_match_takes_its_exercises_away(make_exercise, client):
    exercise = make_exercise(make_user("random_one"))
    match = exercise.match
    solver = make_user("solver")
    Match.objects.filter(pk=match.pk).update(annulled_at=timezone.now())
    assert next_public(solver) is None
    with pytest.raises(CommandError):
        exercise_answer(user=solver, exercise_id=exercise.pk, steps=[[24, 18, 6]])
    Match.objects.filter(pk=match.pk).delete()
    assert not Exercise.objects.exists() and not MatchPerformance.objects.exists()
    client.force_login(solver)
    assert client.get(reverse("exercise", kwargs={"exercise_id": exercise.pk})).status_code == 404


def test_the_stream_filters_by_phase_and_rule_set(make_exercise, client):
    exercise = make_exercise(make_user("random_one"))
    solver = make_user("solver")
    assert next_public(solver, phase=exercise.phase, rule_set=exercise.rule_set_name) is not None
    assert (
        next_public(
            solver,
            rule_set="tournament" if exercise.rule_set_name != "tournament" else "traditional",
        )
        is None
    )
    client.force_login(solver)
    response = client.get(
        reverse("exercise_stream"), {"phase": exercise.phase, "rules": "nonsense"}
    )
    assert response.status_code == 302 and "/exercises/" in response["Location"]
