"""The provisional "?" wherever a rating is shown: the lobby (payload and page) and the
match's players (snapshot and the state the services publish)."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings
from django.urls import reverse

from games import selectors, services
from tests.factories import make_user
from tests.ratings.test_leaderboards import rated_player

pytestmark = pytest.mark.django_db


def marks(players) -> dict[str, tuple[int, bool]]:
    return {player["username"]: (player["rating"], player["provisional"]) for player in players}


@override_settings(ACCOUNT_EMAIL_VERIFICATION="none")
def test_lobby_marks_provisional_ratings(client):
    veteran = rated_player("veteran", "1634.2", experience=60)
    newcomer = make_user("newcomer", password=None)
    challenge = services.match_create(creator=veteran, turn_seconds=60)
    services.match_create(creator=newcomer, turn_seconds=60)
    lobby = selectors.lobby_state()
    opened = {entry["creator"]: (entry["rating"], entry["provisional"]) for entry in lobby["open"]}
    assert opened == {"veteran": (1634, False), "newcomer": (1500, True)}
    html = client.get(reverse("play")).content.decode()
    assert re.search(r"<td>veteran</td><td>1634</td>", html)
    assert re.search(r"<td>newcomer</td><td>1500\?</td>", html)
    # A match in play: both players, as the Watch list shows them.
    services.match_cancel(user=newcomer, match_id=selectors.player_open_match(newcomer).pk)
    services.match_accept(user=newcomer, match_id=challenge.pk)
    (live,) = selectors.lobby_state()["live"]
    assert marks(live["players"]) == {"veteran": (1634, False), "newcomer": (1500, True)}
    assert "veteran (1634) – newcomer (1500?)" in client.get(reverse("play")).content.decode()


@pytest.mark.django_db(transaction=True)  # the snapshot sets its own isolation level
def test_match_players_carry_the_mark_in_snapshots_and_published_states():
    veteran = rated_player("veteran", "1634.2", experience=60)
    learner = rated_player("learner", "1512", experience=12)
    match = services.match_create(creator=veteran, turn_seconds=60)
    services.match_accept(user=learner, match_id=match.pk)
    snapshot = selectors.match_snapshot(match.pk)
    expected = {"veteran": (1634, False), "learner": (1512, True)}
    assert marks(snapshot.state["match"]["players"]) == expected
    # The services' path (games/services/hot_path.py reads the players with the lock).
    from django.db import transaction

    from games.services.runners import locked

    with transaction.atomic():
        context = locked(match.pk)
    assert marks(context.match_section()["players"]) == expected
