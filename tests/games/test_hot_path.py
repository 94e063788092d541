"""games/services/hot_path.py, the play commands' plain SQL, against the ORM on PostgreSQL;
and the ORM writes of games/services/context.py (only the changed fields)."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game, Match, Turn
from games.services.hot_path import PLAYER_FIELDS, Player, lock_and_load, write_rows
from games.services.runners import locked
from ratings.models import Rating
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def field_values(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_lock_and_load_loads_what_the_orm_loads(active_match, players, fixed_dice):
    creator, opponent = players
    Rating.objects.create(user=opponent, rating=1612, experience=57)
    opponent.auto_roll = True
    opponent.save()
    fixed_dice(5, 3)
    services.game_roll(user=creator, match_id=active_match.pk, version=active_match.version)
    with transaction.atomic():
        match, game, loaded_players = lock_and_load(active_match.pk)
    assert field_values(match) == field_values(Match.objects.get(pk=active_match.pk))
    assert field_values(game) == field_values(Game.objects.get(match=active_match))
    assert game.steps == [] and game.dice == [5, 3] and game.opening_ties == []
    assert game.match is match
    assert loaded_players == [
        Player(creator.pk, creator.username, False, None, None, True, "", False, False),
        Player(opponent.pk, opponent.username, True, 1612, 57, True, "", False, False),
    ]


def test_the_player_fields_name_every_field_of_player_in_order():
    # The rating's shown value is Player.rating; every other name is Player's own.
    as_named = [{"rating__value": "rating"}.get(name, name.removeprefix("rating__"))
                for name in PLAYER_FIELDS]  # fmt: skip
    assert as_named == [field.name for field in dataclasses.fields(Player)]


def test_an_open_challenge_has_no_game_and_a_missing_match_is_none(players):
    match = services.match_create(creator=players[0])
    with transaction.atomic():
        loaded, game, loaded_players = lock_and_load(match.pk)
        assert lock_and_load(match.pk + 1000) is None
    assert game is None and [player.id for player in loaded_players] == [players[0].pk]


def test_a_command_updates_only_the_fields_it_changed_in_one_statement(
    active_match, players, fixed_dice
):
    creator, _ = players
    fixed_dice(5, 3)
    with CaptureQueriesContext(connection) as queries:
        services.game_roll(user=creator, match_id=active_match.pk, version=active_match.version)
    (update,) = [query["sql"] for query in queries if query["sql"].startswith(("UPDATE", "WITH"))]
    game_part, match_part = update.split('UPDATE "games_match"')
    assert '"board"' not in game_part and '"dice"' in game_part and '"phase"' in game_part
    assert '"version"' in match_part and '"status"' not in match_part
    with transaction.atomic():
        context = locked(active_match.pk)
        context.save()  # nothing changed: nothing written
    assert Match.objects.get(pk=active_match.pk).version == active_match.version + 1


def test_write_rows_writes_what_the_orm_reads_back(active_match):
    with transaction.atomic():
        match, game, _ = lock_and_load(active_match.pk)
    game.board = [0] * 23 + [15]
    game.steps = [[24, 20, 4], [20, 18, 2]]
    game.dice = [4, 2]
    game.opening_ties = [[3, 3]]
    game.turn_deadline = None
    match.version += 7
    match.end_reason = "resigned"
    with transaction.atomic():
        write_rows(
            [
                (game, ["board", "steps", "dice", "opening_ties", "turn_deadline"]),
                (match, ["version"]),
            ]
        )
    assert field_values(Game.objects.get(pk=game.pk)) == field_values(game)
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, stored.end_reason) == (match.version, "")  # only the named fields


def test_write_rows_inserts_the_move_log_as_bulk_create_does(active_match, players):
    game = Game.objects.get(match=active_match)
    now = active_match.started_at

    def turn(number: int, **values) -> Turn:
        return Turn(
            game=game, number=number, side="w", player=players[0], dice=[6, 5], roll=3,
            steps=[[24, 18, 6], [18, 13, 5]], board_after=[0] * 23 + [15],
            started_at=now, finished_at=now, **values,
        )  # fmt: skip

    with transaction.atomic():
        game.board = [1] * 24
        write_rows([(game, ["board"])], [turn(1), turn(2, by_server=True, doubled_to=2)])
        Turn.objects.bulk_create([turn(3, by_server=True, doubled_to=2)])
    written = {turn.number: field_values(turn) for turn in Turn.objects.filter(game=game)}
    assert set(written) == {1, 2, 3}
    assert written[1]["dice"] == [6, 5] and written[1]["steps"] == [[24, 18, 6], [18, 13, 5]]
    assert written[1]["by_server"] is False and written[1]["doubled_to"] == 0
    without_ids = {number: {k: v for k, v in row.items() if k not in ("id", "number")}
                   for number, row in written.items()}  # fmt: skip
    assert without_ids[2] == without_ids[3]  # the plain INSERT and the ORM's agree
    assert Game.objects.get(pk=game.pk).board == [1] * 24  # the update in the same statement


def test_write_rows_refuses_a_value_the_orm_refuses(active_match):
    """The integer arrays' shortcut keeps the ORM's int() check: nothing is written."""
    game = Game.objects.get(match=active_match)
    game.board = ["x"] * 24
    with pytest.raises(ValueError), transaction.atomic():
        write_rows([(game, ["board"])])
    assert Game.objects.get(pk=game.pk).board != ["x"] * 24


@pytest.mark.django_db(transaction=True)
def test_a_lock_that_waited_sees_the_game_committed_while_it_waited(active_match):
    """One statement that joins the game to the locking SELECT would see the game as it was
    before the wait (READ COMMITTED re-checks only the locked row); lock_and_load must not."""
    holding = threading.Event()
    seen = {}

    def writer():
        with transaction.atomic():
            match, game, _ = lock_and_load(active_match.pk)
            holding.set()
            time.sleep(0.5)  # the reader is now waiting for the lock
            Game.objects.filter(pk=game.pk).update(board=[0] * 23 + [15])
            Match.objects.filter(pk=match.pk).update(version=match.version + 1)

    def reader():
        holding.wait(5)
        with transaction.atomic():
            match, game, _ = lock_and_load(active_match.pk)
            seen["board"], seen["version"] = game.board, match.version

    run_together(writer, reader, timeout=10)
    assert seen == {"board": [0] * 23 + [15], "version": active_match.version + 1}
