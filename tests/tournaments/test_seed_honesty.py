"""A tournament match's client seeds are both drawn by the pairing wave (neither player sends
one), so its commitment precedes no player's seed: the fairness page, the match and replay pages'
fairness panel, the export (`client_seeds_drawn_by_server`) and the command-line verifier say so
for such a match, and only for it (docs/protocol.md, "Post-match analysis and the match export")."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import services as game_services
from games.fairness.__main__ import main as verify_main
from tests.tournaments.conftest import finished_tournament_match, rated

pytestmark = pytest.mark.django_db(transaction=True)

NOTE = 'data-fair="server-drew-seeds"'


def finished_arena_match() -> int:
    return finished_tournament_match()[0]


def finished_challenge() -> int:
    creator, opponent = rated("seed_creator"), rated("seed_opponent")
    match = game_services.match_create(creator=creator, client_seed="mine-after-the-hash")
    game_services.match_accept(user=opponent, match_id=match.pk, client_seed="theirs")
    game_services.match_resign(user=opponent, match_id=match.pk)
    return match.pk


def test_the_export_says_who_drew_the_seeds(client):
    arena_id, challenge_id = finished_arena_match(), finished_challenge()
    fairness = {
        match_id: client.get(reverse("match_export", kwargs={"match_id": match_id})).json()[
            "match"]["fairness"]
        for match_id in (arena_id, challenge_id)
    }  # fmt: skip
    assert fairness[arena_id]["client_seeds_drawn_by_server"] is True
    assert fairness[challenge_id]["client_seeds_drawn_by_server"] is False
    assert fairness[challenge_id]["client_seeds"] == ["mine-after-the-hash", "theirs"]


@pytest.mark.parametrize("page", ["match", "match_replay"])
def test_the_match_pages_say_so_for_a_tournament_match_only(client, page):
    arena_id, challenge_id = finished_arena_match(), finished_challenge()
    shown = {
        match_id: NOTE in client.get(reverse(page, kwargs={"match_id": match_id})).content.decode()
        for match_id in (arena_id, challenge_id)
    }
    assert shown == {arena_id: True, challenge_id: False}


@pytest.mark.parametrize("language", ["en", "ru", "ro", "uk", "el", "sr-latn"])
def test_the_fairness_page_says_so_in_every_language(client, language):
    client.cookies["django_language"] = language
    page = client.get(reverse("fairness"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'id="tournament-seeds"' in page and "client_seeds_drawn_by_server" in page


def test_the_verifier_notes_it(client, tmp_path, capsys):
    arena_id = finished_arena_match()
    export = client.get(reverse("match_export", kwargs={"match_id": arena_id})).json()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    verify_main(["verify", "--quiet", str(path)])
    printed = capsys.readouterr().out
    assert "the server drew both client seeds" in printed
