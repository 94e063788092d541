"""The board commands' two-statement path (games/services/runners.py `play`): read without the
lock, write only if nobody wrote the match or its game meanwhile, else run again under the lock.

Transactional: inside the test's own transaction only the locked path runs."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from prometheus_client import REGISTRY

from games import services
from games.models import Game, Match, Turn
from games.services import context as contexts
from games.services import kept, runners
from games.services.hot_path import load_unlocked, lock_and_load, write_rows_guarded
from games.services.state_rows import match_state_of, row_values
from nardy import BORNE_OFF, Step
from tests.factories import make_user
from tests.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def run_again_under_the_lock(reason: str) -> float:
    """How many board commands this process ran again under the lock for `reason` (/metrics)."""
    return REGISTRY.get_sample_value("nardy_board_commands_locked_total", {"reason": reason}) or 0


def field_values(instance, leave_out=()) -> dict:
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in leave_out
    }


def accepted_match(fixed_dice, names: tuple[str, str]) -> Match:
    creator, opponent = make_user(names[0]), make_user(names[1])
    match = services.match_create(creator=creator, turn_seconds=60)
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=match.pk)
    match.refresh_from_db()
    return match


def play_a_turn(match: Match, white, fixed_dice) -> None:
    """White (seat 0) rolls 6-5 and plays both steps from the head: one turn, in three
    commands, the last of which ends the turn (a move-log row) and hands the dice over."""
    fixed_dice(6, 5)
    match = services.game_roll(user=white, match_id=match.pk, version=match.version)
    match = services.game_step_play(
        user=white, match_id=match.pk, version=match.version, step=Step(24, 18, 6)
    )
    services.game_step_play(
        user=white, match_id=match.pk, version=match.version, step=Step(18, 13, 5)
    )


def test_a_turn_takes_one_or_two_statements_a_command_and_writes_what_the_locked_path_writes(
    fixed_dice,
):
    unlocked = accepted_match(fixed_dice, ("fast_w", "fast_b"))
    white = unlocked.creator
    with CaptureQueriesContext(connection) as queries:
        play_a_turn(unlocked, white, fixed_dice)
    statements = [query["sql"] for query in queries]
    # The roll reads and writes; each step starts from the rows the roll's write kept
    # (games/services/kept.py) and only writes.
    assert len(statements) == 4, statements
    assert not any("FOR UPDATE" in sql or sql.startswith(("BEGIN", "COMMIT")) for sql in statements)
    assert all("xmin" in sql for sql in statements)

    locked = accepted_match(fixed_dice, ("slow_w", "slow_b"))
    with transaction.atomic():  # the caller's transaction: the locked path only
        play_a_turn(locked, locked.creator, fixed_dice)

    leave_out = {"id", "match_id", "creator_id", "opponent_id", "game_id", "player_id",
                 "created_at", "started_at", "last_activity_at", "finished_at", "turn_deadline",
                 "server_seed", "server_seed_hash", "client_seed_creator", "client_seed_opponent",
                 "invite_token", "turn_started_at", "clock_started_at"}  # fmt: skip
    for model, rows in ((Match, (unlocked, locked)),):
        fast, slow = (model.objects.get(pk=row.pk) for row in rows)
        assert field_values(fast, leave_out) == field_values(slow, leave_out)
    fast_game, slow_game = (Game.objects.get(match=row) for row in (unlocked, locked))
    assert field_values(fast_game, leave_out) == field_values(slow_game, leave_out)
    assert fast_game.board[23] == 14 and fast_game.board[12] == 1  # one checker, 24 -> 13
    fast_turns, slow_turns = (
        list(Turn.objects.filter(game__match=row)) for row in (unlocked, locked)
    )
    assert [field_values(turn, leave_out) for turn in fast_turns] == [
        field_values(turn, leave_out) for turn in slow_turns
    ]
    assert len(fast_turns) == 1 and fast_turns[0].steps == [[24, 18, 6], [18, 13, 5]]


def test_the_guarded_write_writes_nothing_when_the_match_changed_since_the_read(fixed_dice):
    match = accepted_match(fixed_dice, ("guard_mw", "guard_mb"))
    read, game, _players, versions = load_unlocked(match.pk)
    Match.objects.filter(pk=match.pk).update(version=match.version + 5)  # another writer
    read.version += 1
    game.board = [1] * 24
    assert not write_rows_guarded(read, ["version"], game, ["board"], [], versions)
    assert Match.objects.get(pk=match.pk).version == match.version + 5
    assert Game.objects.get(pk=game.pk).board != [1] * 24


def test_the_guarded_write_undoes_the_match_when_only_the_game_changed(fixed_dice):
    """The game's guard fails after the match's passed: the statement undoes itself, so the
    match row (and the move log's row) stay as they were."""
    match = accepted_match(fixed_dice, ("guard_gw", "guard_gb"))
    read, game, _players, versions = load_unlocked(match.pk)
    Game.objects.filter(pk=game.pk).update(dice=[3, 3])  # another writer, the game row only
    read.version += 1
    game.board = [1] * 24
    turn = Turn(
        game=game, number=1, side="w", player_id=read.creator_id, dice=[6, 5], roll=1,
        steps=[[24, 18, 6]], board_after=[1] * 24, started_at=read.started_at,
        finished_at=read.started_at,
    )  # fmt: skip
    assert not write_rows_guarded(read, ["version"], game, ["board"], [turn], versions)
    assert Match.objects.get(pk=match.pk).version == match.version
    stored = Game.objects.get(pk=game.pk)
    assert stored.dice == [3, 3] and stored.board != [1] * 24
    assert not Turn.objects.filter(game=game).exists()


def test_the_guarded_write_writes_when_nothing_changed(fixed_dice):
    match = accepted_match(fixed_dice, ("guard_ok_w", "guard_ok_b"))
    read, game, _players, versions = load_unlocked(match.pk)
    Match.objects.filter(pk=match.pk + 10_000).update(version=0)  # another match: no matter
    read.version += 1
    game.board = [1] * 24
    assert write_rows_guarded(read, ["version"], game, ["board"], [], versions)
    assert Match.objects.get(pk=match.pk).version == match.version + 1
    assert Game.objects.get(pk=game.pk).board == [1] * 24
    assert load_unlocked(match.pk)[3] != versions  # both rows are new versions now
    assert load_unlocked(match.pk + 10_000) is None


def test_a_command_raced_between_its_read_and_its_write_runs_again_under_the_lock(
    fixed_dice, monkeypatch
):
    """Another writer commits between the command's read and its guarded write: the write is
    refused and the command runs again on the locked state, which it applies once."""
    match = accepted_match(fixed_dice, ("race_w", "race_b"))
    real_load = runners.load_unlocked
    calls = []

    def load_then_another_writer(match_id):
        loaded = real_load(match_id)
        calls.append(match_id)
        # What a concurrent writer (a clock, a moderator) does to the game row meanwhile.
        Game.objects.filter(match_id=match_id).update(turn_deadline=None)
        assert loaded[1].turn_deadline is not None
        return loaded

    monkeypatch.setattr(runners, "load_unlocked", load_then_another_writer)
    fixed_dice(6, 5)
    raced = run_again_under_the_lock("raced")
    played = services.game_roll(user=match.creator, match_id=match.pk, version=match.version)
    assert calls == [match.pk]
    assert run_again_under_the_lock("raced") == raced + 1
    assert played.version == match.version + 1
    stored = Match.objects.get(pk=match.pk)
    assert stored.version == match.version + 1
    game = Game.objects.get(match=match)
    # The locked run rolled the same dice (the test seam, like seeded dice, gives a roll asked
    # for again the same pair), and the other writer's change stands: no update was lost.
    assert game.dice == [6, 5] and game.turn_deadline is None


def test_a_refusal_is_answered_from_the_locked_state(fixed_dice):
    match = accepted_match(fixed_dice, ("refuse_w", "refuse_b"))
    refused = run_again_under_the_lock("refused")
    with pytest.raises(services.CommandError) as refusal:
        services.game_roll(user=match.opponent, match_id=match.pk, version=match.version)
    assert refusal.value.code == "not_your_turn"
    assert run_again_under_the_lock("refused") == refused + 1
    with pytest.raises(services.CommandError) as refusal:
        services.game_roll(user=match.creator, match_id=match.pk + 10_000, version=None)
    assert refusal.value.code == "not_found"
    assert Match.objects.get(pk=match.pk).version == match.version


def test_commands_of_both_kinds_at_once_apply_each_once(fixed_dice):
    """Many rolls for one turn at once, from both paths: exactly one is applied, the others are
    refused (stale or not the mover's any more), and nothing deadlocks."""
    match = accepted_match(fixed_dice, ("both_w", "both_b"))
    fixed_dice(*([6, 5] * 8))
    outcomes = []

    def roll(in_transaction: bool):
        def run():
            try:
                if in_transaction:
                    with transaction.atomic():
                        services.game_roll(
                            user=match.creator, match_id=match.pk, version=match.version
                        )
                else:
                    services.game_roll(user=match.creator, match_id=match.pk, version=match.version)
                outcomes.append("rolled")
            except services.CommandError as refusal:
                outcomes.append(refusal.code)

        return run

    run_together(*(roll(index % 2 == 0) for index in range(6)))
    assert outcomes.count("rolled") == 1, outcomes
    assert set(outcomes) - {"rolled"} <= {"stale_version", "already_rolled", "not_your_turn"}
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_command_that_ends_a_game_is_written_under_the_lock(fixed_dice, monkeypatch):
    """Ending a game writes ratings, records and new rows: the unlocked run stops at the end's
    event (NeedsLock) before any of it, and the locked run writes it."""
    match = accepted_match(fixed_dice, ("end_w", "end_b"))
    with transaction.atomic():
        locked_match, game, _ = lock_and_load(match.pk)
        board = [0] * 24
        board[0] = 1  # White's last checker, on its point 1: any roll bears it off
        board[11] = -15  # Black: all on its head
        game.board = game.turn_board = board
        game.save(update_fields=["board", "turn_board"])
    fixed_dice(6, 5)
    match = services.game_roll(user=match.creator, match_id=match.pk, version=match.version)
    stopped = []
    real_follow = contexts.Locked._follow

    def follow(self, event):
        try:
            real_follow(self, event)
        except contexts.NeedsLock:
            stopped.append(type(event).__name__)
            raise

    monkeypatch.setattr(contexts.Locked, "_follow", follow)
    ends = run_again_under_the_lock("begins_or_ends")
    ended = services.game_step_play(
        user=match.creator, match_id=match.pk, version=match.version, step=Step(1, BORNE_OFF, 6)
    )
    assert stopped == ["GameOver"]
    assert run_again_under_the_lock("begins_or_ends") == ends + 1
    assert ended.status == "finished"
    assert Match.objects.get(pk=match.pk).status == "finished"


def test_the_rows_kept_after_a_write_are_the_rows_the_database_holds(fixed_dice):
    """After each board command the process keeps the rows it wrote (games/services/kept.py) for
    the match's next command, which then reads nothing: they must be what a read returns."""
    match = accepted_match(fixed_dice, ("kept_w", "kept_b"))
    white = match.creator
    fixed_dice(6, 5)
    played = services.game_roll(user=white, match_id=match.pk, version=match.version)
    for step in (Step(24, 18, 6), Step(18, 13, 5)):
        held = kept.take(match.pk, played.version)
        assert held is not None
        assert held.match is not played  # the caller's copy: the next command changes these
        read, game, players, versions = load_unlocked(match.pk)
        assert row_values(held.match) == row_values(read)
        assert row_values(held.game) == row_values(game)
        assert (list(held.players), held.versions) == (players, versions)
        kept.keep(*held[:4])
        with CaptureQueriesContext(connection) as queries:
            played = services.game_step_play(
                user=white, match_id=match.pk, version=played.version, step=step
            )
        assert len(queries) == 1, [query["sql"] for query in queries]  # the write alone
    assert Game.objects.get(match=match).board[12] == 1
    assert Turn.objects.filter(game__match=match).count() == 1


def test_kept_rows_are_not_used_for_a_client_that_saw_a_newer_version(fixed_dice):
    match = accepted_match(fixed_dice, ("newer_w", "newer_b"))
    fixed_dice(6, 5)
    played = services.game_roll(user=match.creator, match_id=match.pk, version=match.version)
    assert kept.take(match.pk, played.version + 1) is None
    assert kept.take(match.pk, played.version) is None  # taken: gone either way


def test_kept_rows_another_writer_changed_are_read_again(fixed_dice):
    """Another writer changed the game after this process kept its rows (a clock, a moderator):
    the guarded write refuses them, and the command is read and run again without the lock,
    keeping the other writer's change."""
    match = accepted_match(fixed_dice, ("stale_w", "stale_b"))
    fixed_dice(6, 5)
    played = services.game_roll(user=match.creator, match_id=match.pk, version=match.version)
    Game.objects.filter(match=match).update(turn_deadline=None)  # behind the kept rows' back
    raced = run_again_under_the_lock("raced")
    with CaptureQueriesContext(connection) as queries:
        played = services.game_step_play(
            user=match.creator, match_id=match.pk, version=played.version, step=Step(24, 18, 6)
        )
    # The kept rows' write (refused), the read, the write.
    assert len(queries) == 3, [query["sql"] for query in queries]
    assert run_again_under_the_lock("raced") == raced
    game = Game.objects.get(match=match)
    assert game.turn_deadline is None and game.board[17] == 1
    assert Match.objects.get(pk=match.pk).version == played.version


def test_the_state_kept_with_the_rows_is_the_state_the_rows_give(fixed_dice):
    """The next command on this process starts from the engine's state the last one left
    (games/services/kept.py), not one built from the rows: after every command of two turns,
    both players', it must be the state `match_state_of` builds from the rows PostgreSQL holds,
    and the match section kept must be the one the rows give."""
    match = accepted_match(fixed_dice, ("state_w", "state_b"))
    white, black = match.creator, match.opponent
    fixed_dice(6, 5)
    played = services.game_roll(user=white, match_id=match.pk, version=match.version)
    commands = [
        (white, Step(24, 18, 6)), (white, Step(18, 13, 5)), (black, "roll"),
        (black, Step(24, 22, 2)), (black, Step(22, 19, 3)),
    ]  # fmt: skip
    for user, step in commands:
        held = kept.take(match.pk, played.version)
        assert held is not None and held.state is not None
        read, game, players, versions = load_unlocked(match.pk)
        assert held.state == match_state_of(read, game)
        assert held.match_sent == contexts.context_of(read, game, players).match_section()
        kept.keep(*held[:4], state=held.state, match_sent=held.match_sent)
        if step == "roll":
            fixed_dice(3, 2)
            played = services.game_roll(user=user, match_id=match.pk, version=played.version)
        else:
            played = services.game_step_play(
                user=user, match_id=match.pk, version=played.version, step=step
            )
    assert Turn.objects.filter(game__match=match).count() == 2
