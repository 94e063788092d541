"""Post-match analysis through its services, views and hooks (analysis/): a rated match played
to its end by a strong chooser against a random mover is queued when it ends, analysed once, and
the random side's performance rating is far worse; asking is limited per user per hour; a match
being played is never analysed (no URL answers for it); the export and the profile show the
result. The Celery worker itself runs in tests/e2e/test_analysis_replay.py."""

from __future__ import annotations

import hashlib
import random

import pytest
from django.urls import reverse

from analysis.models import AnalysisStatus, MatchAnalysis
from analysis.services import analysis_queue_finished, analysis_request, analysis_run
from games import services
from games.models import Match, MatchStatus, Turn
from nardy.bots import BEGINNER, MASTER, choose_bot_turn
from realtime.errors import CommandError
from tests.analysis.conftest import finished_empty_match
from tests.factories import make_user
from tests.games.test_services import play_to_the_end

pytestmark = pytest.mark.django_db


def play_bot_against_random(match_id: int, strong, weak, seed: int = 11) -> None:
    """`strong` plays Master's turn (a small budget), `weak` a random legal turn, to the end.

    The same match every run: the dice come from fixed seeds (games/fairness), set before the
    first roll, and both choosers are seeded. Random dice left the random mover, now and then,
    without one mistake the analysis keeps as an exercise (3 to 13 in six probes, none in a CI
    run), and the tests built on this match need its mistakes."""
    assert not Turn.objects.filter(game__match_id=match_id).exists(), "set before the first roll"
    Match.objects.filter(pk=match_id).update(
        server_seed=hashlib.sha256(f"server {seed}".encode()).hexdigest(),
        client_seed_creator=f"creator-{seed}", client_seed_opponent=f"opponent-{seed}",
    )  # fmt: skip
    rng = random.Random(seed)

    def choose(mover, turn):
        level = MASTER if mover == strong else BEGINNER
        return choose_bot_turn(level, turn.start_board, turn.side, turn.dice, turn.first_turn,
                               turn.rules, seed=rng.getrandbits(32), budget=3000)  # fmt: skip

    play_to_the_end(match_id, (strong, weak), None, choose)


@pytest.fixture
def finished_match(django_capture_on_commit_callbacks):
    """A rated match played to its end with every after-commit callback run, as in production:
    its end queued the analysis through games' `match_finished` (the task itself not run)."""
    strong, weak = make_user("strong_one"), make_user("random_one")
    match = services.match_create(creator=strong, turn_seconds=120, rated=True)
    services.match_accept(user=weak, match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play_bot_against_random(match.pk, strong, weak)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.rated
    return match, strong, weak


def test_a_rated_match_is_queued_when_it_ends_and_analysed_once(finished_match):
    match, strong, weak = finished_match
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == AnalysisStatus.QUEUED and analysis.requested_by is None
    assert analysis.turns_total == Turn.objects.filter(game__match=match).count() > 0
    done = analysis_run(match_id=match.pk)
    assert done.status == AnalysisStatus.DONE and done.percent == 100
    report = done.result
    assert len(report["turns"]) == analysis.turns_total
    assert report["cube"] is None and report["depth"] == 2
    strong_seat, weak_seat = match.seat_of(strong.pk), match.seat_of(weak.pk)
    totals = report["totals"]
    assert totals[weak_seat]["pr"] > 3 * totals[strong_seat]["pr"]
    assert totals[strong_seat]["equity_lost"] / totals[strong_seat]["decisions"] < 0.05
    for turn in report["turns"]:
        assert turn["loss"] >= 0.0 and turn["played"] <= turn["best"] + 1e-9
        assert 0.0 <= turn["white_wins"] <= 1.0
        if turn["best_steps"] is not None:
            assert not turn["forced"]
    weak_turns = [t for t in report["turns"] if t["seat"] == weak_seat and not t["forced"]]
    assert sum(1 for t in weak_turns if t["best_steps"]) > len(weak_turns) / 2
    assert done.pr_creator == totals[0]["pr"] and done.pr_opponent == totals[1]["pr"]
    # Stored once: another run (a redelivered task) and another trigger change nothing.
    finished_at = done.finished_at
    assert analysis_run(match_id=match.pk).finished_at == finished_at
    analysis_queue_finished(match_id=match.pk)
    assert MatchAnalysis.objects.get(match=match).finished_at == finished_at
    # Asking for it is free and returns the stored one.
    assert analysis_request(user=weak, match_id=match.pk).status == AnalysisStatus.DONE


def test_the_export_the_state_and_the_profile_show_it(finished_match, client):
    match, strong, weak = finished_match
    export_url = reverse("match_export", kwargs={"match_id": match.pk})
    assert client.get(export_url).json()["analysis"] is None
    state_url = reverse("analysis_state", kwargs={"match_id": match.pk})
    assert client.get(state_url).json() == {"status": "queued", "percent": 0, "position": 1}
    analysis_run(match_id=match.pk)
    exported = client.get(export_url).json()["analysis"]
    count = Turn.objects.filter(game__match=match).count()
    assert len(exported["turns"]) == count
    assert set(exported["turns"][0]) == {"game", "number", "side", "played", "best", "loss", "mark"}
    assert exported["thresholds"] == {"blunder": 0.16, "mistake": 0.08, "doubtful": 0.04}
    state = client.get(state_url).json()
    assert state["status"] == "done" and state["percent"] == 100
    replay = client.get(reverse("match_replay", kwargs={"match_id": match.pk})).content.decode()
    assert 'id="analysis"' in replay and "js/analysis.js" in replay
    client.force_login(weak)  # signed in: the panel's form carries the CSRF token
    replay = client.get(reverse("match_replay", kwargs={"match_id": match.pk})).content.decode()
    assert 'id="analysis-form"' in replay and "csrfmiddlewaretoken" in replay
    profile = client.get(reverse("profile", kwargs={"username": weak.username})).content.decode()
    pr = MatchAnalysis.objects.get(match=match).pr_opponent
    assert 'id="performance-rating"' in profile and f"{pr:.1f}" in profile


def test_requests_are_limited_per_user_per_hour(settings, django_capture_on_commit_callbacks):
    settings.ANALYSIS_REQUESTS_PER_HOUR = 2
    asker, other = make_user("asker"), make_user("other_one")
    matches = [finished_empty_match(other, asker) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=False) as sent:
        for match in matches[:2]:
            analysis_request(user=asker, match_id=match.pk)
    assert len(sent) == 2
    with pytest.raises(CommandError) as refused:
        analysis_request(user=asker, match_id=matches[2].pk)
    assert refused.value.code == "analysis_limit"
    assert not MatchAnalysis.objects.filter(match=matches[2]).exists()
    # Asking again for one already queued is free; someone else may ask for the third.
    assert analysis_request(user=asker, match_id=matches[0].pk).status == AnalysisStatus.QUEUED
    analysis_request(user=other, match_id=matches[2].pk)
    assert MatchAnalysis.objects.filter(match=matches[2], requested_by=other).exists()


def test_the_view_answers_the_limit_with_429_and_changes_nothing(settings, client):
    settings.ANALYSIS_REQUESTS_PER_HOUR = 0
    asker = make_user("limited")
    match = finished_empty_match(make_user("x_other"), asker)
    client.force_login(asker)
    url = reverse("analysis_request", kwargs={"match_id": match.pk})
    response = client.post(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 429 and response.json()["error"] == "analysis_limit"
    assert not MatchAnalysis.objects.exists()


def test_a_casual_match_is_not_analysed_unless_asked(django_capture_on_commit_callbacks):
    a, b = make_user("casual_a"), make_user("casual_b")
    match = services.match_create(creator=a, turn_seconds=None, rated=False)
    services.match_accept(user=b, match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_resign(user=b, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    assert not MatchAnalysis.objects.exists()


def test_a_match_being_played_is_never_analysed(client):
    player, opponent = make_user("live_a"), make_user("live_b")
    active_match = services.match_create(creator=player, turn_seconds=60)
    services.match_accept(user=opponent, match_id=active_match.pk)
    client.force_login(player)
    with pytest.raises(CommandError) as refused:
        analysis_request(user=player, match_id=active_match.pk)
    assert refused.value.code == "not_finished"
    with pytest.raises(CommandError):
        analysis_queue_finished(match_id=active_match.pk)
    for url in (
        reverse("analysis_state", kwargs={"match_id": active_match.pk}),
        reverse("analysis_request", kwargs={"match_id": active_match.pk}),
    ):
        assert client.get(url).status_code in (404, 405)
        assert client.post(url, HTTP_ACCEPT="application/json").status_code in (404, 405)
    assert not MatchAnalysis.objects.exists()


def test_hostile_requests_get_a_clear_refusal(client):
    owner, other = make_user("h_owner"), make_user("h_other")
    match = finished_empty_match(owner, other)
    url = reverse("analysis_request", kwargs={"match_id": match.pk})
    # Signed out: refused, nothing stored.
    response = client.post(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 403 and response.json()["error"] == "sign_in"
    assert client.get(url).status_code == 405
    for missing in (0, 2**31 - 1, 10**12):
        state = f"/matches/{missing}/analysis.json"
        assert client.get(state).status_code == 404
    assert client.get("/matches/abc/analysis.json").status_code == 404
    client.force_login(other)
    # A huge body and odd fields change nothing: the match id is all that is read.
    response = client.post(
        url, {"match_id": "1" * 5000, "x": ["1"] * 100}, HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 200 and response.json()["status"] == "queued"
    assert MatchAnalysis.objects.get().match_id == match.pk
    # Replayed: the same row, not a second one.
    client.post(url, HTTP_ACCEPT="application/json")
    assert MatchAnalysis.objects.count() == 1
