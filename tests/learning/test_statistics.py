"""A player's statistics (learning/services/results.py, learning/selectors.py): counted once
per finished match, per length and per computer level, with the mars of its games; the
profile shows them, the phases' performance ratings and the chart, from stored rows only."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, GameResult, Match
from games.services.bots import bot_account
from learning.models import MatchPerformance, StatKind, StatLine
from learning.services.results import statistics_count_match
from tests.analysis.conftest import finished_empty_match
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def add_mars_game(match: Match, winner_seat: int) -> None:
    board = [0] * 24
    Game.objects.create(
        match=match, number=Game.objects.filter(match=match).count() + 1, white_seat=0,
        start_board=board, board=board, turn_board=board, turn="w", phase="over",
        turn_started_at=timezone.now(), result=GameResult.MARS,
        winner_side="w" if winner_seat == 0 else "b", points=2,
    )  # fmt: skip


def test_a_finished_match_is_counted_once_by_length_and_level():
    player = make_user("counted_one")
    bot = User.objects.filter(is_bot=True).order_by("pk").first()
    if bot is None:
        pytest.skip("no computer player in this database")
    match = finished_empty_match(player, bot)
    Match.objects.filter(pk=match.pk).update(winner=player, length=3)
    add_mars_game(match, 0)
    add_mars_game(match, 1)
    add_mars_game(match, 0)
    assert statistics_count_match(match_id=match.pk)
    assert not statistics_count_match(match_id=match.pk)  # a second call changes nothing
    length = StatLine.objects.get(user=player, kind=StatKind.LENGTH, key="3")
    assert (length.played, length.won, length.mars_given, length.mars_taken) == (1, 1, 2, 1)
    level = StatLine.objects.get(user=player, kind=StatKind.LEVEL, key=bot.bot_level)
    assert (level.played, level.won) == (1, 1)
    assert not StatLine.objects.filter(user=bot).exists()  # the computer keeps none


def test_the_computers_profile_has_no_statistics_and_a_persons_has(client):
    player, bot = make_user("stats_person"), bot_account("club")
    statistics_count_match(match_id=finished_empty_match(player, bot).pk)
    pages = {
        user: client.get(reverse("profile", kwargs={"username": user.username})).content.decode()
        for user in (player, bot)
    }
    assert 'id="statistics"' in pages[player]
    assert 'id="statistics"' not in pages[bot]
    assert bot.username in pages[bot] and 'id="matches"' in pages[bot]  # the rest of its page


def test_an_unfinished_match_is_not_counted():
    match = finished_empty_match(make_user("one"), make_user("two"))
    Match.objects.filter(pk=match.pk).update(status="active")
    assert not statistics_count_match(match_id=match.pk)
    assert not StatLine.objects.exists()


def test_the_profile_shows_them_in_the_same_few_queries_however_many(client):
    player, other = make_user("shown_one"), make_user("other_one")
    start = timezone.now() - datetime.timedelta(days=10)

    def profile_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("profile", kwargs={"username": player.username}))
        assert page.status_code == 200
        return len(queries), page.content.decode()

    for number in range(3):
        match = finished_empty_match(player, other)
        statistics_count_match(match_id=match.pk)
        when = start + datetime.timedelta(days=number)
        pr = 10.0 + number
        MatchPerformance.objects.create(user=player, match=match, pr=pr, finished_at=when)
    StatLine.objects.create(
        user=player, kind=StatKind.PHASE, key="opening", decisions=10, equity_lost=0.5
    )
    few, page = profile_queries()
    assert 'id="statistics-results"' in page and 'id="performance-chart"' in page
    assert 'id="phase-opening">25.0<' in page  # 500 x 0.5 / 10
    for number in range(3, 30):
        match = finished_empty_match(player, other)
        statistics_count_match(match_id=match.pk)
        when = start + datetime.timedelta(hours=number)
        pr = 10.0 + number % 7
        MatchPerformance.objects.create(user=player, match=match, pr=pr, finished_at=when)
    many, page = profile_queries()
    assert many == few
    assert StatLine.objects.get(user=player, kind=StatKind.LENGTH).played == 30
