"""The tournament page as served shows the controls its socket would (static/js/tournament.js
`showControls`): join before the end, pause or resume and withdraw while joined (docs/rules.md
"Arena tournaments", items 1 and 5), nothing once the tournament is over — so a finished
tournament never flashes Join, Pause or Withdraw before the first message hides them."""

from __future__ import annotations

from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import arena, rated
from tournaments.models import Player, Status, Tournament
from tournaments.services.clock import tournament_finish

pytestmark = pytest.mark.django_db

# With the notice beside Resume for a player the arena paused as absent (item 5).
CONTROLS = ("join", "pause", "resume", "withdraw", "log-in-to-join", "paused-as-absent")

# The viewer's standing -> the controls a running tournament shows them.
RUNNING = {
    "anonymous": {"log-in-to-join"},
    "never joined": {"join"},
    "joined": {"pause", "withdraw"},
    "paused": {"resume", "withdraw"},
    "paused as absent": {"resume", "withdraw", "paused-as-absent"},
    "withdrawn": {"join"},
    "removed": set(),
}
STANDING = {
    "joined": {},
    "paused": {"paused": True},
    "paused as absent": {"paused": True, "paused_as_absent": True},
    "withdrawn": {"withdrawn": True},
    "removed": {"removed": True},
}


class ShownControls(HTMLParser):
    """The ids of CONTROLS on the page that are there and not `hidden`."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if names.get("id") in CONTROLS and "hidden" not in names:
            self.shown.add(names["id"])


def shown_controls(tournament: Tournament, standing: str) -> set[str]:
    client = Client()
    if standing != "anonymous":
        user = rated(f"{standing.replace(' ', '_')}_{tournament.pk}")
        if standing in STANDING:
            Player.objects.create(tournament=tournament, user=user, **STANDING[standing])
        client.force_login(user)
    page = client.get(reverse("tournament", kwargs={"tournament_id": tournament.pk}))
    assert page.status_code == 200
    parser = ShownControls()
    parser.feed(page.content.decode())
    return parser.shown


@pytest.mark.parametrize("standing", list(RUNNING))
def test_a_running_tournament_offers_what_the_viewers_standing_allows(standing):
    assert shown_controls(arena(), standing) == RUNNING[standing]


@pytest.mark.parametrize("standing", list(RUNNING))
def test_a_finished_tournament_offers_no_controls(standing):
    tournament = arena()
    Tournament.objects.filter(pk=tournament.pk).update(
        ends_at=tournament.starts_at + timedelta(seconds=1)
    )
    assert tournament_finish(tournament_id=tournament.pk)
    assert Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED
    assert shown_controls(tournament, standing) == set()
