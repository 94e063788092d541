"""The provisional players beside the rating board (ratings/selectors.py provisional_players): at
a site's start nobody is established, so the rating board's first page also lists the best
provisional players, with "?", never bots or banned players, and kept for a minute."""

from __future__ import annotations

import re
import secrets

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.selectors import PROVISIONAL_SHOWN
from ratings.tasks import refresh_boards
from tests.ratings.test_leaderboards import board_url, rated_player, rows

pytestmark = pytest.mark.django_db


def provisional(html: str) -> list[tuple[str, str]]:
    """(username, rating as shown) of the provisional list, in page order."""
    return re.findall(
        r'<tr id="provisional-([^"]+)"[^>]*><td><a [^>]*>[^<]*</a></td><td class="num">([^<]*)<',
        html,
    )


def test_at_launch_the_rating_board_shows_the_provisional_players(client):
    rated_player("newbie_low", "1480.2", experience=3)
    rated_player("newbie_high", "1561.7", experience=49)
    rated_player("established", "1700")  # on the board, not in the list
    rated_player("long_gone", "1900", experience=10, days_ago=91)
    rated_player("beginner", "1600", experience=10, is_bot=True)
    rated_player("banned_new", "1650", experience=10, is_active=False)
    html = client.get(board_url()).content.decode()
    assert rows(html) == [(1, "established")]
    assert provisional(html) == [("newbie_high", "1562?"), ("newbie_low", "1480?")]
    assert "Provisional players" in html


def test_an_empty_board_still_lists_them(client):
    rated_player("only_new", "1510", experience=5)
    html = client.get(board_url()).content.decode()
    assert rows(html) == [] and "Nobody is on this board yet." in html
    assert provisional(html) == [("only_new", "1510?")]


def test_the_list_is_short_and_only_on_the_rating_boards_first_page(client):
    for index in range(PROVISIONAL_SHOWN + 3):
        rated_player(f"n{index:02}", str(1400 + index), experience=5)
    html = client.get(board_url()).content.decode()
    shown = provisional(html)
    assert len(shown) == PROVISIONAL_SHOWN and shown[0] == (f"n{PROVISIONAL_SHOWN + 2:02}", "1422?")
    for other in ("wins", "week", "month"):
        assert "provisional-board" not in client.get(board_url(other)).content.decode()
    assert "provisional-board" not in client.get(board_url(), {"player": "n01"}).content.decode()
    # Hostile page numbers fall back to a page as before, and the list stays where it is.
    assert client.get(board_url(), {"page": "x\x00"}).status_code == 200


def test_nobody_provisional_no_section(client):
    rated_player("settled", "1600")
    assert "provisional-board" not in client.get(board_url()).content.decode()


def test_the_list_is_kept_for_a_minute_and_refreshed_by_the_beat(client, monkeypatch):
    monkeypatch.setattr("ratings.selectors.BOARD_COUNT_SECONDS", 60)
    monkeypatch.setattr("ratings.selectors.BOARD_CACHE_PREFIX", f"test-{secrets.token_hex(4)}")
    rated_player("first_new", "1520", experience=5)
    with CaptureQueriesContext(connection) as listing:
        refresh_boards()
    listed_here = '"ratings_rating"."experience" <'
    assert any(listed_here in query["sql"] for query in listing)
    with CaptureQueriesContext(connection) as viewed:
        assert provisional(client.get(board_url()).content.decode()) == [("first_new", "1520?")]
    assert not any(listed_here in query["sql"] for query in viewed)  # read from the cache
    rated_player("second_new", "1530", experience=5)
    assert provisional(client.get(board_url()).content.decode()) == [("first_new", "1520?")]
    refresh_boards()
    shown = provisional(client.get(board_url()).content.decode())
    assert shown == [("second_new", "1530?"), ("first_new", "1520?")]
