"""A direct challenge leaves the challenged player's pages however it ends (the site socket,
docs/protocol.md "The site socket"): declined, lapsed, withdrawn by its creator, or accepted in
another tab; each sends `challenge_gone` to every page, which then drops its notice and the tab's
challenge mark (static/js/notify.js)."""

from __future__ import annotations

import datetime

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.models import Match
from games.services import match_cancel
from games.services.challenges import challenge_decline, challenge_direct, challenges_expire
from games.services.lifecycle import match_accept
from tests.factories import make_user
from tests.games.conftest import cookie_for
from tests.pairing.test_sockets import open_socket, until

pytestmark = pytest.mark.django_db(transaction=True)


def lapse(match_id: int) -> int:
    Match.objects.filter(pk=match_id).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )
    return challenges_expire(match_id=match_id)


@pytest.mark.parametrize("ending", ["declined", "lapsed", "withdrawn", "accepted"])
async def test_every_end_of_a_direct_challenge_reaches_the_challenged_players_pages(client, ending):
    ana, bogdan = await sync_to_async(make_user)("ana"), await sync_to_async(make_user)("bogdan")
    cookie = await sync_to_async(cookie_for)(client, bogdan)
    socket = await open_socket("/ws/me/", cookie)
    await socket.receive_json_from(timeout=5)  # the hello: who is signed in
    match = await sync_to_async(challenge_direct)(creator=ana, invited=bogdan, turn_seconds=60)
    assert (await until(socket, "challenge"))["match_id"] == match.pk
    ends = {
        "declined": lambda: challenge_decline(user=bogdan, match_id=match.pk),
        "lapsed": lambda: lapse(match.pk),
        "withdrawn": lambda: match_cancel(user=ana, match_id=match.pk),
        "accepted": lambda: match_accept(user=bogdan, match_id=match.pk),
    }
    await sync_to_async(ends[ending])()
    assert (await until(socket, "challenge_gone"))["match_id"] == match.pk
    await socket.disconnect()


async def test_a_challenge_withdrawn_is_not_offered_to_a_new_page(client):
    ana, bogdan = await sync_to_async(make_user)("ana2"), await sync_to_async(make_user)("bogdan2")
    cookie = await sync_to_async(cookie_for)(client, bogdan)
    match = await sync_to_async(challenge_direct)(creator=ana, invited=bogdan, turn_seconds=60)
    await sync_to_async(match_cancel)(user=ana, match_id=match.pk)
    socket = await open_socket("/ws/me/", cookie)
    await socket.receive_json_from(timeout=5)  # the hello
    # The bell's snapshot comes next, with no `challenge` before it: the bell keeps the
    # challenge as news, shown without its buttons (static/js/bell.js).
    assert (await socket.receive_json_from(timeout=5))["type"] == "notifications"
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()
