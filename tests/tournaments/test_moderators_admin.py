"""A moderator (the Moderators group, moderation/groups.py) opens the tournaments' admin pages and
runs their actions (docs/operations.md "Administration": moderators cancel tournaments and remove
players),
and changes nothing directly; staff outside the group, and a sanctioned moderator, do not."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from moderation.models import Sanction
from tests.factories import enable_totp, make_user
from tests.moderation.conftest import make_moderator
from tests.tournaments.conftest import arena, rated
from tournaments.models import ModerationEntry, Player, Status, Tournament
from tournaments.services.players import tournament_join

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = (
    "/admin/tournaments/tournament/",
    "/admin/tournaments/tournament/{tournament}/change/",
    "/admin/tournaments/player/",
    "/admin/tournaments/player/{player}/change/",
    "/admin/tournaments/moderationentry/",
)


def run_action(client, url: str, action: str, ids: list[int], **fields):
    return client.post(url, {"action": action, "_selected_action": ids, "index": 0, **fields})


@pytest.fixture
def running():
    tournament = arena()
    for name in ("cheat", "honest"):
        tournament_join(user=rated(name), tournament_id=tournament.pk)
    return tournament


def pages_of(tournament) -> list[str]:
    player = Player.objects.filter(tournament=tournament).first()
    return [page.format(tournament=tournament.pk, player=player.pk) for page in PAGES]


def test_the_group_holds_the_tournaments_permissions():
    codenames = set(
        Group.objects.get(name="Moderators").permissions.filter(
            content_type__app_label="tournaments"
        ).values_list("codename", flat=True)
    )  # fmt: skip
    assert codenames == {"view_tournament", "view_player", "view_moderationentry",
                         "moderate_tournament", "view_arenapair"}  # fmt: skip


def test_a_moderator_opens_every_tournament_page_and_runs_both_actions(client, running):
    moderator = make_moderator("tournament_mod")
    client.force_login(moderator)
    for page in pages_of(running):
        response = client.get(page)
        assert response.status_code == 200, page
    listing = client.get("/admin/tournaments/tournament/").content.decode()
    assert 'value="cancel"' in listing
    assert 'value="remove"' in client.get("/admin/tournaments/player/").content.decode()

    cheat = Player.objects.get(user__username="cheat")
    run_action(client, "/admin/tournaments/player/", "remove", [cheat.pk], reason="two accounts")
    assert Player.objects.get(pk=cheat.pk).removed
    run_action(client, "/admin/tournaments/tournament/", "cancel", [running.pk], reason="farm")
    assert Tournament.objects.get(pk=running.pk).status == Status.CANCELLED
    assert sorted(ModerationEntry.objects.values_list("action", "moderator__username")) == [
        ("cancel", "tournament_mod"), ("remove", "tournament_mod"),
    ]  # fmt: skip
    trail = client.get("/admin/tournaments/moderationentry/").content.decode()
    assert "two accounts" in trail and "farm" in trail


def test_a_moderator_edits_no_tournament_row_directly(client):
    tournament = arena(running=False)
    tournament_join(user=rated("waiting"), tournament_id=tournament.pk)
    player = Player.objects.get()
    client.force_login(make_moderator("tournament_mod"))
    change = client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert change.status_code == 200 and b'name="_save"' not in change.content
    assert client.post(f"/admin/tournaments/tournament/{tournament.pk}/change/",
                       {"name": "Renamed"}).status_code == 403  # fmt: skip
    assert client.get("/admin/tournaments/tournament/add/").status_code == 403
    assert client.post(f"/admin/tournaments/tournament/{tournament.pk}/delete/",
                       {"post": "yes"}).status_code == 403  # fmt: skip
    assert client.post(f"/admin/tournaments/player/{player.pk}/delete/",
                       {"post": "yes"}).status_code == 403  # fmt: skip
    assert client.get("/admin/tournaments/series/").status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).name == tournament.name


def test_staff_outside_the_group_get_no_tournament_page(client, running):
    staff = make_user("plain_staff", is_staff=True)
    enable_totp(staff)
    client.force_login(staff)
    for page in pages_of(running):
        assert client.get(page).status_code == 403, page


@pytest.mark.parametrize("kind", ["ban", "chat_mute"])
def test_a_sanctioned_moderator_runs_no_action(client, running, kind):
    from datetime import timedelta

    from django.utils import timezone

    moderator = make_moderator("sanctioned_mod")
    Sanction.objects.create(user=moderator, kind=kind, reason="x", created_by=make_user("boss"),
                            ends_at=timezone.now() + timedelta(days=1))  # fmt: skip
    client.force_login(moderator)
    listing = client.get("/admin/tournaments/tournament/")
    if kind == "ban":  # a ban closes the admin to staff altogether (moderation/staff_mfa.py)
        assert listing.status_code == 403
    else:  # a mute leaves the pages, without the actions (moderation.services.may_moderate)
        assert listing.status_code == 200 and 'value="cancel"' not in listing.content.decode()
    run_action(client, "/admin/tournaments/tournament/", "cancel", [running.pk], reason="x")
    cheat = Player.objects.get(user__username="cheat")
    run_action(client, "/admin/tournaments/player/", "remove", [cheat.pk], reason="x")
    assert Tournament.objects.get(pk=running.pk).status == Status.RUNNING
    assert not Player.objects.get(pk=cheat.pk).removed
    assert not ModerationEntry.objects.exists()
