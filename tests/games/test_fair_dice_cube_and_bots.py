"""Provably fair dice in the cube and bot matches: a cube match with doubles,
takes and drops and Omerta's opening roll before every game, and a match against the computer,
each played through the services with the fair source only; every drawn roll is in the export with
its number (1..n in each game) and the verifier accepts the record."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import services
from games.fairness import is_client_seed, verify_export
from games.models import Match
from games.services.bots import bot_act
from games.services.runners import locked
from tests.factories import make_user

from .test_fairness import next_command

pytestmark = pytest.mark.django_db

MAX_COMMANDS = 3000


def export_of(client, match_id: int) -> dict:
    response = client.get(reverse("match_export", kwargs={"match_id": match_id}))
    assert response.status_code == 200
    return json.loads(response.content)


def assert_rolls_numbered_and_verified(export: dict) -> None:
    assert export["match"]["fairness"]["verifiable"]
    report = verify_export(export)
    assert report.ok, (report.problems, [check for check in report.checks if not check.ok])
    for game in export["games"]:
        opening = len(game["opening"]["ties"]) + 1 if game["opening"] else 0
        numbers = [turn["roll"] for turn in game["turns"] if turn["roll"] is not None]
        if game["unfinished_turn"] is not None:
            numbers.append(game["unfinished_turn"]["roll"])
        # Every roll drawn in the game is recorded, numbered from 1 without a gap.
        assert list(range(1, opening + 1)) + numbers == list(range(1, game["rolls"] + 1)), game


def cube_command(match: Match, users: dict):
    """The cube's command due now, if any: the mover doubles once per game at stake 1 when the
    rules allow it; the answerer takes in odd games and drops in even ones."""
    game = match.games.order_by("-number").first()
    if game.phase != "roll":
        return None
    version = match.version
    if game.cube_offer is not None:
        answerer = users[match.player_id(1 - game.cube_offer)]
        answer = services.game_cube_take if game.number % 2 else services.game_cube_drop
        return answer, {"user": answerer, "match_id": match.pk, "version": version}
    mover = game.seat_of_side(game.turn)
    if game.cube_value == 1 and locked(match.pk).state.may_double(mover):
        return services.game_cube_double, {
            "user": users[match.player_id(mover)], "match_id": match.pk, "version": version,
        }  # fmt: skip
    return None


def test_a_cube_match_with_takes_drops_and_omerta_openings_verifies(client, players):
    creator, opponent = players
    match = services.match_create(
        creator=creator, length=5, doubling_cube=True, game_starter="opening_roll",
        turn_seconds=None, rated=False, client_seed="cube-creator",
    )  # fmt: skip
    services.match_accept(user=opponent, match_id=match.pk, client_seed="cube_opponent")
    users = {creator.pk: creator, opponent.pk: opponent}
    answers = {"game_cube_take": 0, "game_cube_drop": 0}
    for _ in range(MAX_COMMANDS):
        match = Match.objects.get(pk=match.pk)
        if match.status != "active":
            break
        call, arguments = cube_command(match, users) or next_command(match.pk, users)
        if call.__name__ in answers:
            answers[call.__name__] += 1
        call(**arguments)
    assert match.status == "finished"
    assert answers["game_cube_take"] >= 1 and answers["game_cube_drop"] >= 1, answers
    export = export_of(client, match.pk)
    results = {game["result"] for game in export["games"]}
    assert "drop" in results and len(export["games"]) >= 2, results
    # Omerta: every game opens with its own roll, drawn from this game's rolls 1..k.
    assert all(game["opening"] is not None for game in export["games"])
    assert any(game["cube"]["value"] >= 2 for game in export["games"])
    assert_rolls_numbered_and_verified(export)


def test_a_match_against_the_computer_verifies(client):
    person = make_user("fair_bot_opponent")
    match = services.match_create_vs_bot(
        user=person, level="beginner", length=3, turn_seconds=None, client_seed="person-seed"
    )
    bot_seed = match.client_seed_opponent
    assert match.client_seed_creator == "person-seed" and is_client_seed(bot_seed)
    assert match.dice_source == "fair"
    users = {person.pk: person}
    for _ in range(MAX_COMMANDS):
        match = Match.objects.get(pk=match.pk)
        if match.status != "active":
            break
        game = match.games.order_by("-number").first()
        if match.player_id(game.seat_of_side(game.turn)) == person.pk:
            call, arguments = next_command(match.pk, users)
            call(**arguments)
        else:  # what the Celery task does after each commit (games/tasks.py bot_act)
            bot_act(match_id=match.pk, version=match.version)
    assert match.status == "finished"
    export = export_of(client, match.pk)
    assert export["match"]["fairness"]["client_seeds"] == ["person-seed", bot_seed]
    assert any(turn["by_server"] is False for game in export["games"] for turn in game["turns"])
    assert_rolls_numbered_and_verified(export)
