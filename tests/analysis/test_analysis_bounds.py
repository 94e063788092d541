"""The bounds on analysis work (analysis/services.py; docs/security.md, "Security notes"): a
person's hourly
limit holds when their requests for different matches arrive at once (real threads on
PostgreSQL); guests cannot ask; a rated match queues its own analysis only when it is long enough
and while the site's hourly budget of automatic analyses lasts; a waiting analysis shows its
place in the queue."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from accounts.guests import guest_create
from analysis.models import AnalysisStatus, MatchAnalysis
from analysis.selectors import analysis_state
from analysis.services import analysis_queue_finished, analysis_request
from games import services
from games.models import Match, MatchStatus, Turn
from realtime.errors import CommandError
from tests.analysis.conftest import finished_empty_match
from tests.factories import make_user
from tests.games.test_services import play_to_the_end
from tests.threads import run_together


def _asks_at_once(asker, matches) -> tuple[int, list[str]]:
    """`asker` asks for every match's analysis, one thread per match, all released together:
    how many were accepted, and the refusals' codes."""
    accepted: list[int] = []
    refusals: list[str] = []

    def ask(match_id: int) -> None:
        try:
            analysis_request(user=asker, match_id=match_id)
        except CommandError as refusal:
            refusals.append(refusal.code)
        else:
            accepted.append(match_id)

    run_together(*[lambda match_id=match.pk: ask(match_id) for match in matches])
    return len(accepted), refusals


@pytest.mark.django_db(transaction=True)
def test_requests_for_different_matches_at_once_accept_exactly_the_limit(settings):
    """The count and the new row are under the asker's user-row lock: with only the match row's
    lock, each of these requests counted the others as not there yet and all were accepted."""
    settings.ANALYSIS_REQUESTS_PER_HOUR = 3
    for trial in range(3):
        asker, other = make_user(f"racer{trial}"), make_user(f"racer_other{trial}")
        matches = [finished_empty_match(other, asker) for _ in range(8)]
        accepted, refusals = _asks_at_once(asker, matches)
        assert accepted == 3, (trial, refusals)
        assert refusals == ["analysis_limit"] * 5, trial
        assert MatchAnalysis.objects.filter(requested_by=asker).count() == 3, trial


@pytest.mark.django_db(transaction=True)
def test_the_site_budget_holds_when_many_matches_end_at_once(settings):
    """Automatic analyses are counted under one advisory lock: eight matches ending at once
    queue exactly the budget's number."""
    settings.ANALYSIS_AUTO_PER_HOUR = 3
    settings.ANALYSIS_AUTO_MIN_TURNS = 0
    a, b = make_user("budget_a"), make_user("budget_b")
    matches = [finished_empty_match(a, b) for _ in range(8)]
    run_together(
        *[lambda match_id=m.pk: analysis_queue_finished(match_id=match_id) for m in matches]
    )
    assert MatchAnalysis.objects.filter(requested_by=None).count() == 3


@pytest.mark.django_db
def test_a_guest_cannot_ask_and_is_told_why(client):
    guest = guest_create(address="203.0.113.9")
    match = finished_empty_match(make_user("g_owner"), make_user("g_other"))
    with translation.override("en"), pytest.raises(CommandError) as refused:
        analysis_request(user=guest, match_id=match.pk)
    assert refused.value.code == "guest" and "sign up" in refused.value.message
    client.force_login(guest)
    url = reverse("analysis_request", kwargs={"match_id": match.pk})
    response = client.post(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 403 and response.json()["error"] == "guest"
    # Without Accept: JSON (the form itself), the same refusal comes back as the page's message.
    response = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "Гости не могут заказать анализ: зарегистрируйтесь, чтобы заказать."
    ]
    assert not MatchAnalysis.objects.exists()
    # The replay shows no button to a guest, but says why; a signed-up player gets the button.
    replay = client.get(reverse("match_replay", kwargs={"match_id": match.pk})).content.decode()
    assert 'id="analysis-form"' not in replay and 'id="analysis-guest"' in replay
    client.force_login(make_user("g_member"))
    replay = client.get(reverse("match_replay", kwargs={"match_id": match.pk})).content.decode()
    assert 'id="analysis-form"' in replay and 'id="analysis-guest"' not in replay


@pytest.mark.django_db
def test_the_match_page_offers_no_analyse_button_to_a_guest(client):
    guest = guest_create(address="203.0.113.10")
    match = finished_empty_match(make_user("gm_owner"), guest)
    client.force_login(guest)
    page = client.get(reverse("match", kwargs={"match_id": match.pk})).content.decode()
    assert 'id="analyse-form"' not in page


def _rated_match(a, b) -> Match:
    match = services.match_create(creator=a, turn_seconds=120, rated=True)
    services.match_accept(user=b, match_id=match.pk)
    return match


@pytest.mark.django_db
def test_a_rated_match_resigned_at_once_is_not_queued(django_capture_on_commit_callbacks):
    """What a farmer's partner does: accept, resign. Such matches filled the queue, one each."""
    a, b = make_user("short_a"), make_user("short_b")
    for _ in range(3):
        match = _rated_match(a, b)
        with django_capture_on_commit_callbacks(execute=True):
            services.match_resign(user=b, match_id=match.pk)
        assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    assert not MatchAnalysis.objects.exists()


@pytest.mark.django_db
def test_the_minimum_length_counts_logged_turns(settings, django_capture_on_commit_callbacks):
    a, b = make_user("length_a"), make_user("length_b")
    played = []
    for _ in range(2):
        match = _rated_match(a, b)
        play_to_the_end(match.pk, (a, b), None)
        played.append(match)
    turns = Turn.objects.filter(game__match=played[0]).count()
    assert turns > 0
    settings.ANALYSIS_AUTO_MIN_TURNS = turns + 1
    assert analysis_queue_finished(match_id=played[0].pk) is None
    settings.ANALYSIS_AUTO_MIN_TURNS = Turn.objects.filter(game__match=played[1]).count()
    with django_capture_on_commit_callbacks(execute=False) as sent:
        queued = analysis_queue_finished(match_id=played[1].pk)
    assert queued is not None and queued.requested_by is None and len(sent) == 1
    assert list(MatchAnalysis.objects.values_list("match_id", flat=True)) == [played[1].pk]


@pytest.mark.django_db
def test_the_site_budget_counts_automatic_analyses_of_the_last_hour(settings):
    settings.ANALYSIS_AUTO_PER_HOUR = 2
    settings.ANALYSIS_AUTO_MIN_TURNS = 0
    a, b = make_user("hour_a"), make_user("hour_b")
    matches = [finished_empty_match(a, b) for _ in range(5)]
    assert analysis_queue_finished(match_id=matches[0].pk) is not None
    assert analysis_queue_finished(match_id=matches[1].pk) is not None
    assert analysis_queue_finished(match_id=matches[2].pk) is None  # the budget is spent
    # A person's request is theirs, not the budget's: it neither spends nor is refused by it.
    analysis_request(user=b, match_id=matches[3].pk)
    assert analysis_queue_finished(match_id=matches[4].pk) is None
    # A player may still ask for a match the budget left out (counted against them).
    assert analysis_request(user=a, match_id=matches[2].pk).requested_by == a
    # An hour later the first two no longer count.
    MatchAnalysis.objects.filter(requested_by=None).update(
        requested_at=timezone.now() - timedelta(hours=1, seconds=1)
    )
    assert analysis_queue_finished(match_id=matches[4].pk) is not None
    # Asked again for a match already queued, nothing changes.
    assert analysis_queue_finished(match_id=matches[4].pk) is None
    assert MatchAnalysis.objects.count() == 5


@pytest.mark.django_db
def test_a_waiting_analysis_shows_its_place_in_the_queue(client):
    asker, other = make_user("queue_asker"), make_user("queue_other")
    matches = [finished_empty_match(other, asker) for _ in range(3)]
    for match in matches:
        analysis_request(user=asker, match_id=match.pk)
    assert [analysis_state(m.pk)["position"] for m in matches] == [1, 2, 3]
    # Rows asked at the same instant keep one order (the match's id breaks the tie).
    MatchAnalysis.objects.update(requested_at=timezone.now())
    assert [analysis_state(m.pk)["position"] for m in matches] == [1, 2, 3]
    MatchAnalysis.objects.filter(match=matches[0]).update(status=AnalysisStatus.RUNNING)
    state = client.get(reverse("analysis_state", kwargs={"match_id": matches[2].pk})).json()
    assert state == {"status": "queued", "percent": 0, "position": 2}
    assert "position" not in analysis_state(matches[0].pk)  # running: out of the queue
    MatchAnalysis.objects.filter(match=matches[1]).update(status=AnalysisStatus.FAILED)
    assert analysis_state(matches[2].pk)["position"] == 1
    # The answer to the request itself carries it too (the panel shows it at once).
    client.force_login(asker)
    fourth = finished_empty_match(other, asker)
    url = reverse("analysis_request", kwargs={"match_id": fourth.pk})
    assert client.post(url, HTTP_ACCEPT="application/json").json()["position"] == 2
