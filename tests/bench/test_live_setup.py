"""The live benchmarks' matches made in bulk (bench/live_setup.py): the same started matches as
the site's own start path, and a session cookie that signs each player in."""

import pytest
from django.test import Client

from accounts.models import User
from bench.live_setup import setup_matches
from games.models import Game, Match, MatchStatus

pytestmark = pytest.mark.django_db


def test_bulk_and_site_started_matches_are_alike_and_each_cookie_signs_its_player_in():
    made = setup_matches(4, "bulkset", auto_roll=False, site_starts=1)["matches"]
    assert len(made) == 4
    players = {user.username: user for user in User.objects.filter(username__startswith="bulkset")}
    seats = []
    for index, entry in enumerate(made):
        match = Match.objects.get(pk=entry["id"])
        seats.append((match.creator.username, match.opponent.username))
        assert match.status == MatchStatus.ACTIVE
        assert (match.rated, match.rule_set_name) == (False, "traditional")
        assert match.turn_seconds is None
        assert match.version >= 1  # game 1 begun with its opening roll, as an event
        assert Game.objects.filter(match=match, number=1).exists()
        for seat, cookie in enumerate(entry["cookies"]):
            client = Client()
            client.cookies["sessionid"] = cookie
            user = client.get("/").wsgi_request.user
            assert user.pk == players[f"bulkset{2 * index + seat}"].pk
    # The first went through match_create + match_accept, the rest in one wave: in seat order.
    assert seats == [(f"bulkset{2 * i}", f"bulkset{2 * i + 1}") for i in range(4)]


def test_a_forged_cookie_signs_nobody_in():
    setup_matches(1, "bulkfake", auto_roll=False, site_starts=0)
    client = Client()
    client.cookies["sessionid"] = "x" * 32
    assert not client.get("/").wsgi_request.user.is_authenticated
