"""The home page, the place a player starts from (web/home.py): its reads (the players online,
the top of the rating board, the kept live boards), the quick-pairing tiles for a player, a
guest and a visitor, and a visitor's casual tile, which makes a guest and comes back to join."""

from __future__ import annotations

import re
import time

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts.models import User
from accounts.selectors import PLAYERS_ONLINE_CACHE_KEY, players_online
from config.redis_client import sync_client
from ratings.models import Rating
from ratings.selectors import leaders
from ratings.tasks import refresh_boards
from realtime.socket_limits import online_key
from tests.factories import make_user
from tests.ratings.test_leaderboards import rated_player

pytestmark = pytest.mark.django_db


def test_players_online_counts_those_still_to_lapse_for_a_few_seconds():
    sync_client().delete(online_key())
    cache.delete(PLAYERS_ONLINE_CACHE_KEY)
    now = time.time()
    sync_client().zadd(online_key(), {"1": now + 60, "2": now + 30, "3": now - 1})
    assert players_online() == 2  # the third lapsed a second ago
    sync_client().zadd(online_key(), {"4": now + 60})
    assert players_online() == 2  # counted again only after PLAYERS_ONLINE_CACHE_SECONDS
    cache.delete(PLAYERS_ONLINE_CACHE_KEY)
    assert players_online() == 3
    sync_client().delete(online_key())


def test_the_leaders_are_the_rating_boards_top_else_the_best_provisional_players():
    Rating.objects.update(experience=10)  # a site's start: nobody is established
    rated_player("settling", "1700", experience=30)
    rated_player("settling_more", "1650", experience=49)
    rated_player("club", "2500", experience=10, is_bot=True)  # never listed
    refresh_boards()
    assert [(line.rank, line.username, line.rating) for line in leaders(5)] == [
        (None, "settling", (1700, True)),
        (None, "settling_more", (1650, True)),
    ]
    for number in range(7):
        rated_player(f"established_{number}", str(1800 + number))
    refresh_boards()
    top = leaders(5)
    assert [line.username for line in top] == [f"established_{n}" for n in (6, 5, 4, 3, 2)]
    assert [line.rank for line in top] == [1, 2, 3, 4, 5]
    assert top[0].rating == (1806, False)


def test_the_home_page_shows_the_leaders_the_live_figures_and_the_tiles(client):
    rated_player("leader_one", "2000")
    refresh_boards()
    client.force_login(make_user("ana_home"))
    page = client.get(reverse("home")).content.decode()
    assert 'id="leader-leader_one"' in page and 'href="/leaderboard/"' in page
    assert 'id="live-boards-data"' in page and 'id="players-online"' in page
    assert 'id="online-count"' not in page  # shown once, in the page's figures
    tiles = re.findall(r'<button type="button" class="tile" data-pool="([^"]+)">', page)
    assert "traditional.1.60.rated" in tiles and "traditional.1.60.casual" in tiles


def test_a_guest_joins_casual_tiles_and_is_asked_to_sign_up_for_rated_ones(client):
    client.force_login(make_user("guest_home", is_guest=True))
    page = client.get(reverse("home")).content.decode()
    joinable = re.findall(r'<button type="button" class="tile" data-pool="([^"]+)">', page)
    assert joinable and all(key.endswith(".casual") for key in joinable)
    assert 'form="pool-signup" name="next" value="/?pool=traditional.1.60.rated"' in page
    assert 'id="pool-as-guest"' not in page  # a guest already


def test_a_visitors_casual_tile_makes_a_guest_who_comes_back_to_join(client):
    page = client.get(reverse("home")).content.decode()
    assert 'form="pool-as-guest" name="pool" value="traditional.1.60.casual"' in page
    assert 'form="pool-signup" name="next" value="/?pool=traditional.1.60.rated"' in page
    answer = client.post(
        reverse("play_now"), {"pool": "traditional.1.60.casual", "next": reverse("home")}
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/?pool=traditional.1.60.casual#quick-pairing"
    assert User.objects.get(pk=client.session["_auth_user_id"]).is_guest


def test_a_tile_never_sends_a_visitor_off_the_site(client):
    answer = client.post(
        reverse("play_now"), {"pool": "traditional.1.60.casual", "next": "https://evil.example/"}
    )
    assert answer["Location"] == "/play/?pool=traditional.1.60.casual#quick-pairing"
