"""The pages: Play (create, accept, cancel), invite links, the match page, Watch, history,
replay and the JSON export; forged and invalid forms change nothing."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Match
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_create_a_challenge_from_the_play_page_and_accept_it(client, fixed_dice):
    creator, opponent = make_user("maker"), make_user("taker")
    client.force_login(creator)
    assert client.get(reverse("play")).status_code == 200
    response = client.post(
        reverse("match_create"),
        {"rule_set_name": "tournament", "length": "3", "turn_seconds": "90",
         "reserve_seconds": "120",
         "rated": "on", "head_exception": "classic", "opening": "reroll"},
    )  # fmt: skip
    match = Match.objects.get(creator=creator)
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert (match.rule_set_name, match.length, match.turn_seconds, match.reserve_seconds) == (
        "tournament",
        3,
        90,
        120,
    )
    assert client.get(match.get_absolute_url()).status_code == 200  # the creator waits on it

    taker = Client()
    taker.force_login(opponent)
    page = taker.get(match.get_absolute_url())
    assert page.status_code == 200 and "accept-button" in page.content.decode()
    fixed_dice(2, 5)
    response = taker.post(reverse("match_accept", kwargs={"match_id": match.pk}))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == "active" and match.opponent == opponent
    assert 'id="match-app"' in taker.get(match.get_absolute_url()).content.decode()


def test_invalid_and_forged_create_forms_change_nothing(client):
    creator = make_user("forger")
    client.force_login(creator)
    response = client.post(
        reverse("match_create"),
        {"rule_set_name": "blitz", "length": "4", "turn_seconds": "0", "rated": "on",
         "reserve_seconds": "0", "head_exception": "classic", "opening": "reroll"},
    )  # fmt: skip
    assert response.status_code == 400
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(creator)
    assert strict.post(reverse("match_create"), {"rule_set_name": "traditional"}).status_code == 403
    anonymous = Client()
    response = anonymous.post(reverse("match_create"), {"rule_set_name": "traditional"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Match.objects.exists()


def test_private_invite_link(client, fixed_dice):
    creator, friend = make_user("host"), make_user("friend")
    match = services.match_create(creator=creator, private=True)
    outsider = Client()
    outsider.force_login(make_user("outsider"))
    assert outsider.get(match.get_absolute_url()).status_code == 404
    response = outsider.post(reverse("match_accept", kwargs={"match_id": match.pk}))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == "open"  # no token: refused

    client.force_login(friend)
    invite = reverse("match_invite", kwargs={"token": match.invite_token})
    assert "accept-button" in client.get(invite).content.decode()
    fixed_dice(3, 1)
    client.post(
        reverse("match_accept", kwargs={"match_id": match.pk}), {"token": match.invite_token}
    )
    match.refresh_from_db()
    assert match.status == "active" and match.opponent == friend


def test_cancel_from_the_page(client):
    creator = make_user("canceller")
    match = services.match_create(creator=creator)
    other = Client()
    other.force_login(make_user("notcreator"))
    other.post(reverse("match_cancel", kwargs={"match_id": match.pk}))
    assert Match.objects.get(pk=match.pk).status == "open"
    client.force_login(creator)
    client.post(reverse("match_cancel", kwargs={"match_id": match.pk}))
    assert Match.objects.get(pk=match.pk).status == "cancelled"


def test_watch_lists_live_matches_and_history_replay_and_export(active_match, players, client):
    white, black = players
    watch = client.get(reverse("watch")).content.decode()
    assert f'data-match-id="{active_match.pk}"' in watch
    # No replay or export while the match is live.
    assert (
        client.get(reverse("match_replay", kwargs={"match_id": active_match.pk})).status_code == 404
    )
    assert (
        client.get(reverse("match_export", kwargs={"match_id": active_match.pk})).status_code == 404
    )

    services.match_resign(user=black, match_id=active_match.pk)
    profile = client.get(reverse("profile", kwargs={"username": white.username})).content.decode()
    assert f'data-match-id="{active_match.pk}"' in profile and "won" in profile
    assert (
        client.get(reverse("match_replay", kwargs={"match_id": active_match.pk})).status_code == 200
    )
    response = client.get(reverse("match_export", kwargs={"match_id": active_match.pk}))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    export = json.loads(response.content)
    assert export["match"]["end_reason"] == "resigned"
    assert export["match"]["winner_seat"] == 0
    assert export["games"][0]["white"] == white.username
    assert client.get(reverse("leaderboard")).status_code == 200
    # One rated match: provisional, so on the wins board and not yet on the rating board.
    wins_board = reverse("leaderboard_board", kwargs={"board": "wins"})
    assert f'id="row-{white.username}"' in client.get(wins_board).content.decode()
    assert f'id="row-{white.username}"' not in client.get(reverse("leaderboard")).content.decode()


def test_the_usual_length_of_the_rule_set_is_the_default(client):
    client.force_login(make_user("usual"))
    form = {
        "rule_set_name": "tournament", "length": "", "turn_seconds": "60", "reserve_seconds": "0",
        "rated": "on", "head_exception": "classic", "opening": "reroll",
    }  # fmt: skip
    client.post(reverse("match_create"), form)
    assert Match.objects.get().length == 5
