"""The pairing pages: the Play page's quick pairing, a profile's Challenge button and form,
the challenged player's accept and decline, open challenges' rating ranges and the lobby filter."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import selectors
from games import services as game_services
from games.models import Match
from games.services import CommandError
from games.services.challenges import challenges_expire
from tests.factories import make_user
from tests.pairing.conftest import rated

pytestmark = pytest.mark.django_db


def test_the_play_page_shows_the_tiles_and_the_filters(client):
    client.force_login(make_user("ana"))
    page = client.get(reverse("play")).content.decode()
    assert 'data-pool="traditional.1.60.rated"' in page
    assert 'id="filter-rules"' in page and 'id="filter-seconds"' in page
    assert 'id="site-notices"' in page


def test_a_visitors_tiles_lead_to_a_guest_or_a_sign_up_and_no_notifications(client):
    page = client.get(reverse("play")).content.decode()
    # No tile joins over the socket (a visitor has no session to wait with): a casual one makes
    # a guest first (accounts/views.py play_now), a rated one asks for an account.
    assert 'data-pool="' not in page
    assert 'form="pool-as-guest" name="pool" value="traditional.1.60.casual"' in page
    assert 'form="pool-signup" name="next" value="/play/?pool=traditional.1.60.rated"' in page
    assert 'id="site-notices"' not in page


def test_the_profile_offers_a_challenge_to_others_only(client):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    client.force_login(ana)
    assert b'id="challenge-button"' in client.get(reverse("profile", args=["bogdan"])).content
    assert b'id="challenge-button"' not in client.get(reverse("profile", args=["ana"])).content
    assert bogdan.pk


def test_a_direct_challenge_is_for_the_challenged_player_only(client, fixed_dice):
    ana, bogdan, cezar = make_user("ana"), make_user("bogdan"), make_user("cezar")
    client.force_login(ana)
    response = client.post(
        reverse("challenge_player", args=["bogdan"]),
        {"rule_set_name": "traditional", "turn_seconds": 60, "reserve_seconds": 0,
         "rated": "on", "head_exception": "classic", "opening": "reroll"},
    )  # fmt: skip
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert (match.invited_id, match.private, match.status) == (bogdan.pk, True, "open")
    assert match.expires_at > timezone.now() + timedelta(seconds=100)
    with pytest.raises(CommandError) as refused:
        game_services.match_accept(user=cezar, match_id=match.pk)
    assert refused.value.code == "not_invited"
    client.force_login(cezar)
    assert client.get(match.get_absolute_url()).status_code == 404
    client.force_login(bogdan)
    assert client.get(match.get_absolute_url()).status_code == 200  # the challenge page
    fixed_dice(6, 2)
    response = client.post(reverse("match_accept", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == "active" and match.opponent_id == bogdan.pk


def test_declining_or_letting_it_lapse_cancels_a_direct_challenge(client):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    from games.services.challenges import challenge_decline, challenge_direct

    first = challenge_direct(creator=ana, invited=bogdan, turn_seconds=60)
    with pytest.raises(CommandError):
        challenge_decline(user=ana, match_id=first.pk)  # only the challenged player declines
    client.force_login(bogdan)
    client.post(reverse("challenge_decline", args=[first.pk]), {"next": "/rules/"})
    first.refresh_from_db()
    assert first.status == "cancelled"
    second = challenge_direct(creator=ana, invited=bogdan, turn_seconds=60)
    assert challenges_expire() == 0  # not due yet
    Match.objects.filter(pk=second.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert challenges_expire() == 1
    second.refresh_from_db()
    assert second.status == "cancelled"
    with pytest.raises(CommandError):
        game_services.match_accept(user=bogdan, match_id=second.pk)


def test_nobody_challenges_themselves():
    from games.services.challenges import challenge_direct

    ana = make_user("ana")
    with pytest.raises(CommandError):
        challenge_direct(creator=ana, invited=ana, turn_seconds=60)
    assert not Match.objects.exists()


def test_only_players_inside_the_rating_range_may_accept_and_see_the_challenge():
    creator, low, inside = rated("ana", 1500), rated("bogdan", 1300), rated("cezar", 1600)
    match = game_services.match_create(creator=creator, min_rating=1400, max_rating=1700)
    open_list = selectors.lobby_state()["open"]
    assert selectors.challenges_visible(open_list, username="bogdan", rating=1300) == []
    assert len(selectors.challenges_visible(open_list, username="cezar", rating=1600)) == 1
    assert len(selectors.challenges_visible(open_list, username="ana", rating=1500)) == 1
    with pytest.raises(CommandError) as refused:
        game_services.match_accept(user=low, match_id=match.pk)
    assert refused.value.code == "outside_range"
    game_services.match_accept(user=inside, match_id=match.pk)


def test_a_reversed_rating_range_is_refused(client):
    client.force_login(make_user("ana"))
    response = client.post(
        reverse("match_create"),
        {"rule_set_name": "traditional", "turn_seconds": 60, "reserve_seconds": 0,
         "rated": "on", "head_exception": "classic", "opening": "reroll",
         "min_rating": 1800, "max_rating": 1200},
    )  # fmt: skip
    assert response.status_code == 400
    assert not Match.objects.exists()
