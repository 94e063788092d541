"""games/rows.py, the match lock's plain-SQL hot path, against the ORM on PostgreSQL."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import rows, services
from games.models import Game, Match, Turn
from ratings.models import Rating
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def field_values(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_lock_match_loads_what_the_orm_loads(active_match, players, fixed_dice):
    creator, opponent = players
    Rating.objects.create(user=opponent, rating=1612)
    opponent.auto_roll = True
    opponent.save()
    fixed_dice(5, 3)
    services.game_roll(user=creator, match_id=active_match.pk, version=active_match.version)
    with transaction.atomic():
        locked = rows.lock_match(active_match.pk)
    match = Match.objects.get(pk=active_match.pk)
    game = Game.objects.get(match=match, number=1)
    assert field_values(locked.match) == field_values(match)
    assert field_values(locked.game) == field_values(game)
    assert isinstance(locked.game.steps, list) and isinstance(locked.game.opening_ties, list)
    assert locked.game.match is locked.match
    assert locked.players == [
        rows.Player(creator.pk, creator.username, False, None, True),
        rows.Player(opponent.pk, opponent.username, True, 1612, True),
    ]


def test_lock_match_of_an_open_challenge_and_of_no_match(players):
    creator, _ = players
    match = services.match_create(creator=creator)
    with transaction.atomic():
        locked = rows.lock_match(match.pk)
        assert rows.lock_match(match.pk + 1000) is None
    assert locked.game is None
    assert [player.username for player in locked.players] == [creator.username]


def test_save_writes_only_the_changed_columns(active_match):
    with transaction.atomic():
        locked = rows.lock_match(active_match.pk)
    # Someone else changes another column meanwhile: a save of ours must not undo it.
    Game.objects.filter(pk=locked.game.pk).update(points=2)
    locked.game.board = [0] * 23 + [15]
    locked.game.steps = [[24, 20, 4]]
    with transaction.atomic():
        rows.save(locked.game)
    game = Game.objects.get(pk=locked.game.pk)
    assert (game.board, game.steps, game.points) == ([0] * 23 + [15], [[24, 20, 4]], 2)

    # A list changed in place counts as changed; nothing changed writes nothing (the row version,
    # PostgreSQL's xmin, stays the same).
    locked.game.board[0] = 1
    with transaction.atomic():
        rows.save(locked.game)
    written = row_version(locked.game)
    with transaction.atomic():
        rows.save(locked.game, locked.match)
    assert row_version(locked.game) == written and Game.objects.get(pk=locked.game.pk).board[0] == 1


def row_version(game) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT xmin::text FROM games_game WHERE id = %s", [game.pk])
        return cursor.fetchone()[0]


def test_insert_writes_a_turn_the_orm_reads_back(active_match, players):
    creator, _ = players
    game = active_match.games.get()
    now = timezone.now()
    turn = rows.insert(
        Turn(game=game, number=1, side="w", player=creator, dice=[4, 2],
             steps=[[24, 20, 4], [20, 18, 2]], board_after=list(game.board), by_server=True,
             started_at=now, finished_at=now)
    )  # fmt: skip
    stored = Turn.objects.get(pk=turn.pk)
    assert field_values(stored) == field_values(turn)
    assert stored.steps == [[24, 20, 4], [20, 18, 2]]


def test_save_inserts_new_rows_in_the_statement_of_its_updates(active_match, players):
    creator, _ = players
    with transaction.atomic():
        locked = rows.lock_match(active_match.pk)
    now = timezone.now()

    def turn(number: int) -> Turn:
        return Turn(game=locked.game, number=number, side="w", player=creator, dice=[4, 2],
                    steps=[[24, 20, 4], [20, 18, 2 + number]], board_after=list(locked.game.board),
                    by_server=False, started_at=now, finished_at=now)  # fmt: skip

    locked.match.version += 1
    with transaction.atomic():
        rows.save(locked.match, locked.game, new=[turn(1), turn(2)])  # the game is unchanged
    logged = Turn.objects.filter(game=locked.game).order_by("number")
    assert [(t.number, t.steps) for t in logged] == [
        (1, [[24, 20, 4], [20, 18, 3]]),
        (2, [[24, 20, 4], [20, 18, 4]]),
    ]
    assert Match.objects.get(pk=active_match.pk).version == active_match.version + 1
    # New rows with nothing to update; and a failed transaction keeps none of them.
    with transaction.atomic():
        rows.save(locked.match, new=[turn(3)])
    with pytest.raises(RuntimeError), transaction.atomic():
        rows.save(locked.match, new=[turn(4)])
        raise RuntimeError("the command fails after writing")
    assert list(logged.values_list("number", flat=True)) == [1, 2, 3]


@pytest.mark.django_db(transaction=True)
def test_a_lock_that_waited_sees_the_game_committed_while_it_waited(active_match):
    """One statement that joins the game to the locking SELECT would see the game as it was
    before the wait (READ COMMITTED re-checks only the locked row); lock_match must not."""
    holding = threading.Event()
    seen = {}

    def writer():
        with transaction.atomic():
            locked = rows.lock_match(active_match.pk)
            holding.set()
            time.sleep(0.5)  # the reader is now waiting for the lock
            locked.game.board = [0] * 23 + [15]
            locked.match.version += 1
            rows.save(locked.game)
            rows.save(locked.match)

    def reader():
        holding.wait(5)
        with transaction.atomic():
            locked = rows.lock_match(active_match.pk)
            seen["board"], seen["version"] = locked.game.board, locked.match.version

    run_together(writer, reader, timeout=10)
    assert seen == {"board": [0] * 23 + [15], "version": active_match.version + 1}
