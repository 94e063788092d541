"""A private challenge (a direct one, or an invite link) that never started stays private for
ever: whatever became of it (open, cancelled, declined, lapsed), only its two parties and staff
see its page, its socket or its chat; everyone else gets "no such match"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatMessage
from chat.services import chat_post
from games import services
from games.models import Match
from games.services.challenges import challenge_decline, challenge_direct, challenges_expire
from tests.factories import make_user
from tests.games.conftest import cookie_for
from tests.games.test_consumers import connect
from tests.games.test_socket_security import closed_with

# (how the challenge was made, what became of it)
ENDINGS = [
    ("invite", "open"),
    ("invite", "cancelled"),
    ("direct", "open"),
    ("direct", "cancelled"),
    ("direct", "declined"),
    ("direct", "lapsed"),
]


def private_challenge(kind: str, end: str, creator, invited) -> Match:
    if kind == "invite":
        match = services.match_create(creator=creator, private=True, rated=False)
    else:
        match = challenge_direct(creator=creator, invited=invited, turn_seconds=60, rated=False)
    if end == "cancelled":
        services.match_cancel(user=creator, match_id=match.pk)
    elif end == "declined":
        challenge_decline(user=invited, match_id=match.pk)
    elif end == "lapsed":
        Match.objects.filter(pk=match.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
        assert challenges_expire(match_id=match.pk) == 1
    match.refresh_from_db()
    assert match.status == ("open" if end == "open" else "cancelled")
    return match


def page_status(user, url: str) -> int:
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser.get(url).status_code


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "end"), ENDINGS)
def test_only_the_parties_and_staff_see_a_private_challenge(kind, end):
    """Failed before the fix: a cancelled private challenge's page (creator, settings, revealed
    seed) was shown to anyone stepping through match ids, and anyone signed in could chat on it;
    an open one was listed on its creator's profile for anyone, and refused to staff."""
    creator, invited = make_user("pc_creator"), make_user("pc_invited")
    stranger, staff = make_user("pc_stranger"), make_user("pc_staff", is_staff=True)
    match = private_challenge(kind, end, creator, invited)
    url = match.get_absolute_url()
    assert page_status(None, url) == 404
    assert page_status(stranger, url) == 404
    assert page_status(creator, url) == 200
    assert page_status(staff, url) == 200
    if kind == "direct":
        assert page_status(invited, url) == 200
    with pytest.raises(services.CommandError) as refused:
        chat_post(user=stranger, match_id=match.pk, text="who is this?")
    assert refused.value.code == "not_found"
    with pytest.raises(services.CommandError) as refused:
        chat_post(user=creator, match_id=match.pk, text="anyone?")
    assert refused.value.code == "match_not_started"
    assert not ChatMessage.objects.filter(match_id=match.pk).exists()
    profile = Client().get(reverse("profile", kwargs={"username": creator.username}))
    assert f'data-match-id="{match.pk}"' not in profile.content.decode()


@pytest.mark.django_db
def test_the_invite_link_still_shows_its_cancelled_challenge():
    """Whoever holds the invite link is the other party: the link shows that the challenge is
    no longer open."""
    creator, friend = make_user("il_creator"), make_user("il_friend")
    match = private_challenge("invite", "cancelled", creator, None)
    browser = Client()
    browser.force_login(friend)
    response = browser.get(reverse("match_invite", kwargs={"token": match.invite_token}))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="challenge"' in page and "accept-button" not in page


@pytest.mark.django_db
def test_a_started_private_match_is_watched_like_any_other(fixed_dice):
    """Once played, an invite-link match is on the Watch page like every live match."""
    creator, friend = make_user("sp_creator"), make_user("sp_friend")
    match = services.match_create(creator=creator, private=True)
    fixed_dice(6, 2)
    services.match_accept(user=friend, match_id=match.pk, token=match.invite_token)
    assert page_status(make_user("sp_stranger"), match.get_absolute_url()) == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("end", ["cancelled", "declined"])
async def test_the_socket_of_a_private_challenge_that_ended_is_not_found(client, end):
    """Failed before the fix: a cancelled private challenge's socket sent anyone its snapshot."""
    creator, invited, stranger = [
        await sync_to_async(make_user)(name) for name in ("ps_creator", "ps_invited", "ps_other")
    ]
    match = await sync_to_async(private_challenge)("direct", end, creator, invited)
    for cookie in (None, await sync_to_async(cookie_for)(client.__class__(), stranger)):
        socket = await connect(match.pk, cookie)
        assert (await socket.receive_json_from(timeout=5))["code"] == "not_found"
        assert await closed_with(socket) == 4404
    for user in (creator, invited):
        socket = await connect(match.pk, await sync_to_async(cookie_for)(client.__class__(), user))
        snapshot = await socket.receive_json_from(timeout=5)
        assert snapshot["type"] == "snapshot"
        assert snapshot["state"]["match"]["status"] == "cancelled"
        await socket.disconnect()
