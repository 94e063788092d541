"""The profile's rating section and record (ratings/records.py, ratings/chart.py)."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from ratings import chart
from ratings.services import rating_revert_match
from tests.factories import make_user
from tests.ratings.conftest import finished_match, play_rated

pytestmark = pytest.mark.django_db


def add_game(match, *, number: int, white_seat: int, winner_side: str, result: str) -> None:
    Game.objects.create(
        match=match, number=number, white_seat=white_seat, start_board=[0] * 24, board=[0] * 24,
        turn_board=[0] * 24, turn="w", phase="over", turn_started_at=match.finished_at,
        result=result, winner_side=winner_side, points=2 if result == "mars" else 1,
    )  # fmt: skip


def profile(client, user) -> str:
    return client.get(reverse("profile", args=[user.username])).content.decode()


def test_profile_shows_rating_peak_chart_and_deltas(client, two_players):
    anna, boris = two_players
    first = play_rated(anna, boris, length=3)  # anna 1517.3205 (peak)
    second = play_rated(boris, anna, length=1)
    html = profile(client, anna)
    assert 'id="rating-peak">1517<' in html
    assert 'id="rating-chart"' in html
    # Three points: 1500 before, after match 1, after match 2.
    points = re.search(r'<polyline class="line" points="([^"]+)"', html).group(1).split()
    assert len(points) == 3
    assert re.search(rf'data-match-id="{first.pk}".*?class="delta up">\+17<', html, re.S)
    assert re.search(rf'data-match-id="{second.pk}".*?class="delta down">-\d+<', html, re.S)
    assert 'id="provisional-note"' in html


def test_a_reverted_match_leaves_the_chart_and_the_list_of_deltas(client, two_players):
    anna, boris = two_players
    play_rated(anna, boris)
    annulled = play_rated(anna, boris)
    rating_revert_match(match_id=annulled.pk)
    html = profile(client, anna)
    points = re.search(r'<polyline class="line" points="([^"]+)"', html).group(1).split()
    assert len(points) == 2
    assert not re.search(rf'data-match-id="{annulled.pk}"[^\n]*class="delta', html)


def test_record_counts_results_mars_timeouts_rule_sets_and_head_to_head(client, two_players):
    anna, boris = two_players
    won = finished_match(anna, boris, length=3, timeouts_creator=1, timeouts_opponent=2)
    add_game(won, number=1, white_seat=0, winner_side="w", result="mars")  # anna (seat 0) gives
    add_game(won, number=2, white_seat=1, winner_side="w", result="mars")  # boris (white) gives
    add_game(won, number=3, white_seat=1, winner_side="b", result="oin")  # anna wins an oin
    lost = finished_match(boris, anna, rule_set_name="tournament", timeouts_opponent=1)
    add_game(lost, number=1, white_seat=0, winner_side="b", result="mars")
    # lost: creator boris is seat 0 and White; Black (anna) won the mars game.
    finished_match(anna, make_user("carl", password=None))
    client.force_login(boris)
    html = profile(client, anna)
    figure = lambda name: re.search(rf'id="{name}">(\d+)<', html).group(1)  # noqa: E731
    assert (figure("matches-won"), figure("matches-lost")) == ("2", "1")
    assert (figure("mars-given"), figure("mars-taken")) == ("2", "1")
    assert figure("timeouts") == "2"  # 1 as creator of `won`, 1 as opponent in `lost`
    assert "100% (2 of 2)" in html and "0% (0 of 1)" in html
    assert re.search(r'id="head-to-head">[^<]*anna won 1, you won 1', html)
    client.logout()
    assert 'id="head-to-head"' not in profile(client, anna)


def test_profile_of_a_player_without_rated_matches(client):
    fresh = make_user("fresh", password=None)
    html = profile(client, fresh)
    assert 'id="rating-now">1500?<' in html and 'id="no-chart"' in html


def test_profile_costs_a_fixed_number_of_queries(
    client, two_players, django_assert_max_num_queries
):
    anna, boris = two_players
    for index in range(40):
        play_rated(anna, boris, length=(1, 3, 5, 7)[index % 4]) if index % 3 else play_rated(
            boris, anna
        )
    client.force_login(boris)
    # session, user, player, rating, history, totals, rule sets, head-to-head, mars, count, page,
    # deltas.
    with django_assert_max_num_queries(12):
        assert client.get(reverse("profile", args=[anna.username])).status_code == 200


def test_chart_geometry():
    start = datetime.datetime(2026, 11, 1, tzinfo=datetime.UTC)
    history = [(start + datetime.timedelta(days=day), Decimal(1500 + 10 * day)) for day in range(5)]
    drawn = chart.rating_chart(history)
    xs = [float(point.split(",")[0]) for point in drawn.points.split()]
    ys = [float(point.split(",")[1]) for point in drawn.points.split()]
    assert xs[0] == chart.LEFT and xs[-1] == chart.WIDTH - chart.RIGHT
    assert ys == sorted(ys, reverse=True)  # rising rating: the line goes up the screen
    labels = [tick.label for tick in drawn.y_ticks]
    assert labels[0] <= 1500 and labels[-1] >= 1540
    assert [tick.label for tick in drawn.x_ticks][0] == start
    # One label per date: five matches on one day give one tick.
    same_day = [(start, Decimal(1500 + day)) for day in range(5)]
    assert len(chart.rating_chart(same_day).x_ticks) == 1
    assert chart.rating_chart(history[:1]) is None
    many = [(start, Decimal(1500 + index % 7)) for index in range(5000)]
    assert len(chart.rating_chart(many).points.split()) == chart.MAX_POINTS


def test_a_long_history_is_thinned_by_the_database(two_players):
    from django.utils import timezone

    from ratings.models import RatingChange
    from ratings.records import rating_history

    anna, boris = two_players
    start = timezone.now() - datetime.timedelta(days=500)
    rows, rating = [], Decimal(1500)
    for index in range(chart.MAX_POINTS + 250):
        match = finished_match(anna, boris)
        delta = Decimal(index % 5) - 2
        rows.append(RatingChange(
            user=anna, match=match, opponent=boris, opponent_rating=Decimal(1500), before=rating,
            after=rating + delta, delta=delta, length=1, won=delta > 0,
            created_at=start + datetime.timedelta(hours=index),
        ))  # fmt: skip
        rating += delta
    RatingChange.objects.bulk_create(rows)
    history = rating_history(anna)
    assert len(history) <= chart.MAX_POINTS + 1
    assert history[0] == (rows[0].created_at, Decimal(1500))
    assert history[-1] == (rows[-1].created_at, rows[-1].after)
    times = [when for when, _ in history]
    assert times == sorted(times)
    # Evenly: no gap between kept points is more than twice the average one.
    gaps = [(b - a).total_seconds() for a, b in zip(times[1:], times[2:], strict=False)]
    assert max(gaps) <= 2 * sum(gaps) / len(gaps)


def test_match_list_merges_both_seats_newest_first_across_pages(client, two_players):
    from games.models import Match
    from games.selectors import PlayerMatches

    anna, boris = two_players
    carla = make_user("carla", password=None)
    start = timezone.now() - datetime.timedelta(days=1)
    made = []
    for index in range(65):  # anna alternates seats: creator, opponent, ... (three pages of 30)
        match = finished_match(anna, boris if index % 2 else carla, rated=False)
        if index % 2:
            Match.objects.filter(pk=match.pk).update(creator=boris, opponent=anna)
        Match.objects.filter(pk=match.pk).update(
            created_at=start + datetime.timedelta(minutes=index)
        )
        made.append(match.pk)
    cancelled = finished_match(anna, boris, rated=False)
    Match.objects.filter(pk=cancelled.pk).update(status="cancelled")
    newest_first = made[::-1]
    listed = PlayerMatches(anna)
    assert listed.count() == 65
    assert [m.pk for m in listed[0:30]] + [m.pk for m in listed[30:60]] == newest_first[:60]
    assert [m.pk for m in listed[60:90]] == newest_first[60:]
    html = client.get(reverse("profile", args=[anna.username]), {"page": 3}).content.decode()
    assert re.findall(r'data-match-id="(\d+)"', html) == [str(pk) for pk in newest_first[60:]]


def test_the_record_is_counted_once_until_a_game_of_the_player_ends(
    client, two_players, django_capture_on_commit_callbacks
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import services

    anna, boris = two_players
    finished_match(anna, boris)
    won = lambda html: re.search(r'id="matches-won">(\d+)<', html).group(1)  # noqa: E731
    with CaptureQueriesContext(connection) as first:
        assert won(profile(client, anna)) == "1"
    # A row written behind the services' back: the record stays as it was counted, from the cache
    # (the aggregates over every match and game are not run again)...
    finished_match(anna, boris)
    with CaptureQueriesContext(connection) as second:
        assert won(profile(client, anna)) == "1"
    assert len(second) <= len(first) - 2
    # ...until a game of the player ends through the services, which count everything again.
    match = services.match_create(creator=anna, turn_seconds=60)
    services.match_accept(user=boris, match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_resign(user=boris, match_id=match.pk)
    assert won(profile(client, anna)) == "3"
    assert re.search(r'id="matches-lost">3<', profile(client, boris))
