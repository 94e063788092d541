"""The leaderboards (ratings/views.py): order, tie-breaks, periods, pagination, exclusions, the
signed-in player's own row, search, and a bounded number of queries per page."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.services.bots import bot_account
from ratings.models import Period, PeriodWins, Rating
from ratings.services import period_starts
from ratings.views import PER_PAGE
from tests.factories import make_user
from tests.ratings.conftest import play_rated

pytestmark = pytest.mark.django_db


def board_url(slug: str = "rating") -> str:
    return reverse("leaderboard") if slug == "rating" else reverse("leaderboard_board", args=[slug])


def rows(html: str) -> list[tuple[int, str]]:
    """(rank, username) of the table rows, in page order."""
    return [
        (int(rank), name)
        for name, rank in re.findall(
            r'<tr id="row-([^"]+)"[^>]*>\s*<td class="rank">(\d+)</td>', html
        )
    ]


def rated_player(name: str, rating: str, *, experience: int = 100, days_ago: int = 1, **fields):
    """A player with a rating row as the services leave it (for board tests of many players)."""
    flags = {key: fields.pop(key) for key in ("is_active",) if key in fields}
    if fields.pop("is_bot", False):  # one account per level
        user = bot_account(name)
    else:
        user = make_user(name, password=None, **flags)  # no password: no slow hashing
    Rating.objects.create(
        user=user,
        rating=Decimal(rating),
        experience=experience,
        last_rated_at=timezone.now() - datetime.timedelta(days=days_ago),
        **{"matches": 10, "wins": 5, **fields},
    )
    return user


def test_rating_board_order_and_who_is_left_off(client):
    rated_player("second", "1700")
    rated_player("first", "1800.4")
    rated_player("tie_b", "1650")  # equal ratings: the older account (lower id) first
    rated_player("third", "1650")
    rated_player("provisional", "1900", experience=49)
    rated_player("inactive90", "1950", days_ago=91)
    rated_player("master", "2000", is_bot=True)
    rated_player("banned", "2100", is_active=False)
    html = client.get(board_url()).content.decode()
    assert rows(html) == [(1, "first"), (2, "second"), (3, "tie_b"), (4, "third")]
    assert ">1800<" in html  # whole numbers shown


def test_provisional_ratings_are_shown_with_a_question_mark(client):
    user = rated_player("newcomer", "1523.6", experience=12, wins=3)
    html = client.get(board_url("wins")).content.decode()
    assert rows(html) == [(1, "newcomer")]
    assert ">1524?<" in html
    profile = client.get(reverse("profile", args=[user.username])).content.decode()
    assert 'id="rating-now">1524?<' in profile


def test_wins_board_breaks_ties_by_fewer_matches(client):
    rated_player("many_wins", "1500", wins=9, matches=20)
    rated_player("efficient", "1500", wins=7, matches=7)
    rated_player("same_wins_more_matches", "1500", wins=7, matches=12)
    rated_player("no_wins", "1500", wins=0, matches=3)
    rated_player("club", "1500", wins=50, matches=50, is_bot=True)
    html = client.get(board_url("wins")).content.decode()
    assert rows(html) == [(1, "many_wins"), (2, "efficient"), (3, "same_wins_more_matches")]


def test_week_and_month_boards_count_the_calendar_period(client):
    anna, boris, carl = make_user("anna"), make_user("boris"), make_user("carl")
    now = timezone.now()
    starts = period_starts(now)
    last_week = starts[Period.WEEK] - datetime.timedelta(days=1)
    for _ in range(2):
        play_rated(boris, carl)
    play_rated(anna, carl)
    play_rated(carl, anna)  # anna 1 win of 2; carl 1 of 3 → anna first on the tie-break
    # Two wins last week (Sunday before this Monday, noon in the site's time zone).
    sunday = timezone.make_aware(datetime.datetime.combine(last_week, datetime.time(12)))
    for _ in range(2):
        play_rated(anna, carl, finished_at=sunday)
    week = rows(client.get(board_url("week")).content.decode())
    assert week == [(1, "boris"), (2, "anna"), (3, "carl")]
    month = rows(client.get(board_url("month")).content.decode())
    if sunday >= timezone.make_aware(
        datetime.datetime.combine(starts[Period.MONTH], datetime.time())
    ):
        # Last week is this month: anna 3 wins of 4 before boris' 2 of 2.
        assert month == [(1, "anna"), (2, "boris"), (3, "carl")]
    else:
        assert month == [(1, "boris"), (2, "anna"), (3, "carl")]


@pytest.mark.parametrize(
    ("moment", "week", "month"),
    [
        # Monday 00:00 starts a week; Sunday 23:59 is still the week before.
        ("2026-11-30 00:00", "2026-11-30", "2026-11-01"),
        ("2026-11-29 23:59", "2026-11-23", "2026-11-01"),
        ("2026-12-01 00:00", "2026-11-30", "2026-12-01"),
        ("2027-01-03 12:00", "2026-12-28", "2027-01-01"),  # a week across the new year
    ],
)
def test_period_boundaries(settings, moment, week, month):
    settings.TIME_ZONE = "UTC"
    when = timezone.make_aware(datetime.datetime.fromisoformat(moment))
    starts = period_starts(when)
    assert (str(starts[Period.WEEK]), str(starts[Period.MONTH])) == (week, month)


def test_period_boundaries_follow_the_site_time_zone(settings):
    settings.TIME_ZONE = "Europe/Bucharest"  # UTC+2 in winter
    sunday_night_utc = datetime.datetime(2026, 11, 29, 22, 30, tzinfo=datetime.UTC)
    assert str(period_starts(sunday_night_utc)[Period.WEEK]) == "2026-11-30"


def test_pagination_and_own_row_off_the_page(client, django_assert_max_num_queries):
    players = [rated_player(f"p{index:03}", str(2000 - index)) for index in range(PER_PAGE + 7)]
    me = players[PER_PAGE + 3]  # rank 54, page 2
    client.force_login(me)
    first = client.get(board_url()).content.decode()
    ranks = rows(first)
    assert ranks[:PER_PAGE] == [(rank, f"p{rank - 1:03}") for rank in range(1, PER_PAGE + 1)]
    assert ranks[PER_PAGE:] == [(PER_PAGE + 4, me.username)]  # the own row, after the page
    assert "Page 1 of 2" in first
    second = rows(client.get(board_url(), {"page": 2}).content.decode())
    assert second == [(rank, f"p{rank - 1:03}") for rank in range(PER_PAGE + 1, PER_PAGE + 8)]
    # A deep page is an index range from its first row's key, never an OFFSET scan; ties on the
    # rating are told apart by the user id, also across the page boundary.
    with CaptureQueriesContext(connection) as queries:
        client.get(board_url(), {"page": 2})
    assert not any("OFFSET" in query["sql"] for query in queries.captured_queries)
    assert any("ROW(" in query["sql"] for query in queries.captured_queries)
    Rating.objects.filter(user__in=players).update(rating="1800")
    tied = rows(client.get(board_url(), {"page": 2}).content.decode())
    assert tied == [(rank, f"p{rank - 1:03}") for rank in range(PER_PAGE + 1, PER_PAGE + 8)]
    # Hostile page numbers fall back to a real page.
    for page in ("0", "-3", "999", "abc", "1e9", "%00"):
        response = client.get(board_url(), {"page": page})
        assert response.status_code == 200


def test_search_jumps_to_the_players_page(client):
    for index in range(PER_PAGE + 5):
        rated_player(f"s{index:03}", str(2000 - index))
    html = client.get(board_url(), {"player": "s052"}).content.decode()
    assert (PER_PAGE + 3, "s052") in rows(html)
    assert 'class="found"' in html
    prefix = rows(client.get(board_url(), {"player": "S05"}).content.decode())
    assert (PER_PAGE + 1, "s050") in prefix  # case-insensitive prefix: the best ranked match
    for hostile in ("nobody", "%", "_", "x" * 5000, "<script>", "\x00"):
        response = client.get(board_url(), {"player": hostile})
        assert response.status_code == 200
        assert "<script>" not in response.content.decode().split("<main", 1)[1]


def test_unknown_board_is_404(client):
    assert client.get("/leaderboard/nonsense/").status_code == 404


@pytest.mark.parametrize("slug", ["rating", "wins", "week", "month"])
def test_each_board_costs_a_fixed_number_of_queries(client, slug, django_assert_max_num_queries):
    anna = make_user("anna")
    for index in range(30):
        opponent = make_user(f"q{index}", password=None)
        play_rated(anna if index % 2 else opponent, opponent if index % 2 else anna, length=7)
    Rating.objects.update(experience=100)
    client.force_login(make_user("viewer"))
    # session + user, count, page, own row (none here), search lookups; the rating board's first
    # page also lists the provisional players (counted here, kept for a minute on a site).
    with django_assert_max_num_queries(6 if slug == "rating" else 5):
        assert client.get(board_url(slug)).status_code == 200
    client.force_login(anna)
    with django_assert_max_num_queries(8):
        html = client.get(board_url(slug), {"player": "q1"}).content.decode()
    assert rows(html)


def test_own_row_is_not_repeated_when_on_the_page(client):
    me = rated_player("me", "1600")
    rated_player("other", "1700")
    client.force_login(me)
    assert rows(client.get(board_url()).content.decode()) == [(1, "other"), (2, "me")]


def test_a_player_off_the_board_is_told_why(client):
    client.force_login(make_user("fresh"))
    html = client.get(board_url()).content.decode()
    assert 'id="own-missing"' in html
    assert PeriodWins.objects.count() == 0


def test_board_size_and_ranks_are_counted_once_a_minute(client, monkeypatch):
    import secrets

    monkeypatch.setattr("ratings.selectors.BOARD_COUNT_SECONDS", 60)
    # Keys of this test only (a site process of another test may have cached its own boards).
    monkeypatch.setattr("ratings.selectors.BOARD_CACHE_PREFIX", f"test-{secrets.token_hex(4)}")

    me = rated_player("cached_me", "1600")
    rated_player("cached_other", "1700")
    client.force_login(me)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as first:
        client.get(board_url())
    with CaptureQueriesContext(connection) as second:
        html = client.get(board_url()).content.decode()
    counts = [sum("COUNT(" in query["sql"] for query in run) for run in (first, second)]
    assert counts == [1, 0]  # the board size, then from the cache (own row on the page)
    assert rows(html) == [(1, "cached_other"), (2, "cached_me")]


def test_the_beat_task_lists_the_page_starts_ahead_of_the_views(client, monkeypatch):
    import secrets

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ratings.tasks import refresh_boards

    monkeypatch.setattr("ratings.selectors.BOARD_COUNT_SECONDS", 60)
    monkeypatch.setattr("ratings.selectors.BOARD_CACHE_PREFIX", f"test-{secrets.token_hex(4)}")
    rated_player("early", "1600")
    assert refresh_boards() == 4
    with CaptureQueriesContext(connection) as viewed:
        assert rows(client.get(board_url()).content.decode()) == [(1, "early")]
    # No window-function pass (nor the size's count) in the view: the task made it.
    assert not any("ROW_NUMBER" in query["sql"] or "COUNT(" in query["sql"] for query in viewed)
    # Until the next refresh a page starts where it started (the trade-off in the module's
    # docstring): the new leader is ahead of page 1's first key.
    rated_player("later", "1700")
    assert rows(client.get(board_url()).content.decode()) == [(1, "early")]
    refresh_boards()
    assert rows(client.get(board_url()).content.decode()) == [(1, "later"), (2, "early")]


def test_no_gap_row_above_the_first_rank(client, monkeypatch):
    """A board counted empty a moment ago (its size is cached) shows a new winner's own row as
    #1 with no "…" row above it."""
    import secrets

    monkeypatch.setattr("ratings.selectors.BOARD_COUNT_SECONDS", 60)
    monkeypatch.setattr("ratings.selectors.BOARD_CACHE_PREFIX", f"test-{secrets.token_hex(4)}")
    winner, loser = make_user("first_winner"), make_user("first_loser")
    client.force_login(winner)
    assert rows(client.get(board_url("wins")).content.decode()) == []  # counted: empty
    play_rated(winner, loser)
    html = client.get(board_url("wins")).content.decode()
    assert rows(html) == [(1, "first_winner")]
    assert 'class="gap"' not in html
    # After a page of other rows, a real gap keeps its "…".
    players = [rated_player(f"g{index:03}", str(2000 - index)) for index in range(PER_PAGE + 3)]
    client.force_login(players[-1])
    html = client.get(board_url()).content.decode()
    assert 'class="gap"' in html
