"""The match page around the board, as the server renders it: a paired match's players are
offered a new opponent from the same pool (games asks pairing through its `match_pool_key` hook),
nobody else is; a match against the computer has no chat and no Report; one Resign, no
"Leave table"; the keyboard's help only for a player; a skip link on every page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services as game_services
from games.models import Match
from pairing import services
from pairing.selectors import match_pool_key
from tests.factories import make_user
from tests.pairing.conftest import TRADITIONAL_1_60

pytestmark = pytest.mark.django_db(transaction=True)


def _paired() -> Match:
    ana, bogdan = make_user("ana"), make_user("bogdan")
    services.pool_join(user=ana, pool=TRADITIONAL_1_60)
    services.pool_join(user=bogdan, pool=TRADITIONAL_1_60)
    return Match.objects.get(creator__in=(ana, bogdan))


def _page(client, match: Match, user=None) -> str:
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("match", kwargs={"match_id": match.pk}))
    assert response.status_code == 200
    return response.content.decode()


def test_the_pool_of_a_paired_match_and_of_no_other():
    match = _paired()
    assert match_pool_key(match) == TRADITIONAL_1_60.key
    other = game_services.match_create(creator=make_user("cezar"), length=1, turn_seconds=60)
    game_services.match_accept(user=make_user("dana"), match_id=other.pk)
    assert match_pool_key(Match.objects.get(pk=other.pk)) == ""


def test_a_paired_matchs_players_get_new_opponent_a_spectator_does_not(client):
    match = _paired()
    expected = f"{reverse('play')}?pool={TRADITIONAL_1_60.key}#quick-pairing"
    for player in (match.creator, match.opponent):
        assert f'id="new-opponent" class="button" href="{expected}"' in _page(client, match, player)
    client.logout()
    assert 'id="new-opponent"' not in _page(client, match)
    client.force_login(make_user("watcher"))
    assert 'id="new-opponent"' not in _page(client, match)


def test_a_challenge_match_offers_no_new_opponent_and_one_resign(client):
    creator, opponent = make_user("eva"), make_user("filip")
    match = game_services.match_create(creator=creator, length=1, turn_seconds=60)
    game_services.match_accept(user=opponent, match_id=match.pk)
    html = _page(client, match, creator)
    assert 'id="new-opponent"' not in html
    # Analyse asks the analysis app (it answers once the match is over).
    analysis = reverse("analysis_request", kwargs={"match_id": match.pk})
    assert f'action="{analysis}" class="inline" id="analyse-form"' in html
    assert 'id="resign-button"' in html and 'id="leave-button"' not in html
    assert 'class="muted keyboard-help"' in html  # a player may play with the keys
    assert 'id="chat-panel"' in html and 'id="report-opponent"' in html
    assert (
        '<a class="skip-link" href="#main">' in html and '<main class="site-main" id="main"' in html
    )
    client.logout()
    assert "keyboard-help" not in _page(client, match)  # a spectator does not play


def test_no_chat_or_report_against_the_computer(client):
    user = make_user("gina")
    match = game_services.match_create_vs_bot(user=user, level="beginner")
    html = _page(client, match, user)
    assert 'id="chat-panel"' not in html and 'id="report-opponent"' not in html
    assert 'id="match-end"' in html and 'id="dice-live"' in html
