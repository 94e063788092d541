"""The creator's view of an open challenge (templates/games/_waiting.html) and Cancel from it and
from the lobby's row; hostile cancels (someone else's, a started match, twice, by GET) change
nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Match
from games.services.challenges import challenge_direct
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def page(client, match) -> str:
    return client.get(reverse("match", kwargs={"match_id": match.pk})).content.decode()


def test_the_creator_sees_whom_the_challenge_waits_for_and_cancel(client):
    anna, boris = make_user("anna_wait"), make_user("boris_wait")
    direct = challenge_direct(creator=anna, invited=boris, length=3)
    public = services.match_create(creator=anna, length=1)
    client.force_login(anna)
    html = page(client, direct)
    assert 'id="waiting"' in html and "Waiting for boris_wait to accept" in html
    assert f'action="{reverse("match_cancel", kwargs={"match_id": direct.pk})}"' in html
    assert "waiting-for-opponent" in html
    html = page(client, public)
    assert "Waiting for an opponent to accept" in html and "boris_wait" not in html
    # The lobby row of one's own challenge has Cancel; someone else's has not.
    theirs = services.match_create(creator=boris, length=5)
    play = client.get(reverse("play")).content.decode()
    assert f'data-cancel="{public.pk}"' in play and f'data-cancel="{theirs.pk}"' not in play


def test_a_started_match_has_no_waiting_view(client):
    anna, boris = make_user("anna_started"), make_user("boris_started")
    match = services.match_create(creator=anna, length=1)
    services.match_accept(user=boris, match_id=match.pk)
    client.force_login(anna)
    assert 'id="waiting"' not in page(client, match)


def test_cancel_then_the_play_page_says_so(client):
    anna = make_user("anna_cancel")
    match = services.match_create(creator=anna, length=1)
    client.force_login(anna)
    response = client.post(reverse("match_cancel", kwargs={"match_id": match.pk}), follow=True)
    assert response.redirect_chain[-1][0] == reverse("play")
    assert "Your challenge is withdrawn." in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == "cancelled"
    # Replayed: refused with a clear message, nothing changes.
    again = client.post(reverse("match_cancel", kwargs={"match_id": match.pk}), follow=True)
    assert "This challenge is no longer open." in again.content.decode()
    assert "Your challenge is withdrawn." not in again.content.decode()


@pytest.mark.parametrize("case", ["someone_else", "started", "by_get", "anonymous", "missing"])
def test_hostile_cancels_change_nothing(client, case):
    anna, boris = make_user(f"anna_{case}"), make_user(f"boris_{case}")
    match = services.match_create(creator=anna, length=1)
    if case == "started":
        services.match_accept(user=boris, match_id=match.pk)
    before = Match.objects.get(pk=match.pk)
    url = reverse("match_cancel", kwargs={"match_id": match.pk})
    if case == "someone_else":
        client.force_login(boris)
        response = client.post(url, follow=True)
        assert "Only the creator can cancel a challenge." in response.content.decode()
    elif case == "started":
        client.force_login(anna)
        response = client.post(url, follow=True)
        assert "This challenge is no longer open." in response.content.decode()
    elif case == "by_get":
        client.force_login(anna)
        assert client.get(url).status_code == 405
    elif case == "anonymous":
        assert Client().post(url).status_code == 302  # to the login page
    else:
        client.force_login(anna)
        url = reverse("match_cancel", kwargs={"match_id": match.pk + 10_000})
        assert client.post(url).status_code in (302, 404)
    after = Match.objects.get(pk=match.pk)
    assert (after.status, after.version) == (before.status, before.version)
