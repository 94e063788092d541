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
from ratings.counts import record_count_match
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
    won = finished_match(
        anna, boris, length=3, timeouts_creator=1, timeouts_opponent=2, counted=False
    )
    add_game(won, number=1, white_seat=0, winner_side="w", result="mars")  # anna (seat 0) gives
    add_game(won, number=2, white_seat=1, winner_side="w", result="mars")  # boris (white) gives
    add_game(won, number=3, white_seat=1, winner_side="b", result="oin")  # anna wins an oin
    lost = finished_match(
        boris, anna, rule_set_name="tournament", timeouts_opponent=1, counted=False
    )
    add_game(lost, number=1, white_seat=0, winner_side="b", result="mars")
    # lost: creator boris is seat 0 and White; Black (anna) won the mars game.
    for match in (won, lost):  # as the match's end counts it, its games written
        record_count_match(match=match)
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
    from ratings.models import Rating, RatingChange
    from ratings.records import rating_history

    anna, boris = two_players
    start = timezone.now() - datetime.timedelta(days=500)
    rows, rating = [], Decimal(1500)
    for index in range(chart.MAX_POINTS + 250):
        match = finished_match(anna, boris, counted=False)
        delta = Decimal(index % 5) - 2
        rows.append(RatingChange(
            user=anna, match=match, opponent=boris, opponent_rating=Decimal(1500), before=rating,
            after=rating + delta, delta=delta, length=1, won=delta > 0,
            created_at=start + datetime.timedelta(hours=index), number=index + 1,
        ))  # fmt: skip
        rating += delta
    RatingChange.objects.bulk_create(rows)
    history = rating_history(Rating.objects.create(user=anna, history_length=len(rows)))
    assert len(history) <= chart.MAX_POINTS + 1
    assert history[0] == (rows[0].created_at, Decimal(1500))
    assert history[-1] == (rows[-1].created_at, rows[-1].after)
    times = [when for when, _ in history]
    assert times == sorted(times)
    # Evenly: no gap between kept points is more than twice the average one.
    gaps = [(b - a).total_seconds() for a, b in zip(times[1:], times[2:], strict=False)]
    assert max(gaps) <= 2 * sum(gaps) / len(gaps)


def test_a_thinned_history_starts_and_ends_at_the_first_and_last_kept_change(two_players):
    from ratings.models import Rating, RatingChange
    from ratings.records import rating_history

    anna, boris = two_players
    start = timezone.now() - datetime.timedelta(days=100)
    total = chart.MAX_POINTS * 3
    rows = RatingChange.objects.bulk_create(
        RatingChange(
            user=anna,
            match=finished_match(anna, boris, counted=False),
            opponent=boris,
            before=Decimal(1500 + index),
            after=Decimal(1501 + index),
            delta=Decimal(1),
            length=1,
            won=True,
            created_at=start + datetime.timedelta(hours=index),
            number=index + 1,
            reverted_at=timezone.now() if index in (0, 1, total - 1) else None,
        )  # fmt: skip
        for index in range(total)
    )
    history = rating_history(Rating.objects.create(user=anna, history_length=total))
    # Numbers 1, 2 and the last were reverted: the chart runs from 3 to the one before the last.
    assert history[0] == (rows[2].created_at, Decimal(1502))
    assert history[1] == (rows[2].created_at, Decimal(1503))
    assert history[-1] == (rows[-2].created_at, rows[-2].after)
    assert chart.MAX_POINTS - 5 <= len(history) <= chart.MAX_POINTS + 1
