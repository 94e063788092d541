"""At the table, in the engine: combined moves of one checker, forced turns, the rule pages' clocks
(NARDEON and Omerta) and claiming an abandoned match."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given

from nardy import (
    START_BOARD,
    Step,
    board_from_points,
    combined_moves,
    is_turn_complete,
    legal_next_steps,
    play_step,
    rule_set,
    start_turn,
)
from nardy import match as engine
from nardy.clock import (
    TimeControl,
    initial_reserve_ms,
    read_clock,
    reserve_after,
    turn_deadline,
)
from nardy.match import MatchOver, MatchState, Stepped, TimedOut, TurnEnded
from tests.nardy.test_match import pairs
from tests.nardy.test_properties import PROPERTY_SETTINGS, dice_strategy, positions

T0 = datetime(2026, 1, 1, tzinfo=UTC)
NARDEON = TimeControl("nardeon")
OMERTA = TimeControl("omerta")


def seconds(value: float) -> timedelta:
    return timedelta(seconds=value)


# --- Combined moves ------------------------------------------------------------------------------


def _paths_by_play(turn, path=()):
    """The oracle: chains of one checker, grown step by step with legal_next_steps/play_step."""
    found = {}
    last = path[-1] if path else None
    for step in legal_next_steps(turn):
        if last is not None and (last.destination == 0 or step.source != last.destination):
            continue
        longer = (*path, step)
        after = play_step(turn, step)
        if len(longer) >= 2:
            key = (longer[0].source, step.destination, tuple(sorted(s.die for s in longer)))
            found.setdefault(key, longer)
        found.update({k: v for k, v in _paths_by_play(after, longer).items() if k not in found})
    return found


def _key(path):
    return (path[0].source, path[-1].destination, tuple(sorted(s.die for s in path)))


@PROPERTY_SETTINGS
@given(positions, dice_strategy)
def test_every_combined_move_is_offered_and_ends_in_a_legal_turn(position, dice) -> None:
    board, side, first_turn, rules = position
    turn = start_turn(board, side, dice, first_turn, rules)
    offered = combined_moves(turn)
    assert {_key(path) for path in offered} == set(_paths_by_play(turn))
    assert len({_key(path) for path in offered}) == len(offered)  # one order per outcome
    for path in offered:
        assert all(a.destination == b.source for a, b in zip(path, path[1:], strict=False))
        state = turn
        for step in path:
            state = play_step(state, step)  # each step legal in turn
        # ... and the turn can still be completed legally.
        assert is_turn_complete(state) or legal_next_steps(state)


@PROPERTY_SETTINGS
@given(positions, dice_strategy)
def test_combined_moves_continue_a_turn_already_begun(position, dice) -> None:
    board, side, first_turn, rules = position
    turn = start_turn(board, side, dice, first_turn, rules)
    first = legal_next_steps(turn)
    if not first:
        return
    after = play_step(turn, first[0])
    for path in combined_moves(after):
        state = after
        for step in path:
            state = play_step(state, step)
    assert {_key(path) for path in combined_moves(after)} == set(_paths_by_play(after))


def test_a_blocked_intermediate_point_makes_no_combined_move() -> None:
    # White's 24 holds the head; Black stands on White's 19 and 21: 5-3 cannot take one checker
    # from 24 to 16 either way round, while 6-2 (via 18 or 22) can.
    board = board_from_points({24: 15}, {24: 13, other(19): 1, other(21): 1})
    blocked = start_turn(board, "w", (5, 3), True, rule_set())
    assert not [p for p in combined_moves(blocked) if p[-1].destination == 16]
    assert combined_moves(blocked) == ()
    open_ = start_turn(board, "w", (6, 2), True, rule_set())
    assert (Step(24, 18, 6), Step(18, 16, 2)) in combined_moves(open_)


def test_the_legal_order_is_chosen_when_only_one_order_is_open() -> None:
    board = board_from_points({24: 15}, {24: 14, other(19): 1})  # 19 blocked: 3 first
    turn = start_turn(board, "w", (5, 3), True, rule_set())
    assert combined_moves(turn) == ((Step(24, 21, 3), Step(21, 16, 5)),)


def test_a_double_offers_two_three_and_four_steps_of_one_checker() -> None:
    turn = start_turn(START_BOARD, "w", (2, 2), False, rule_set())
    destinations = {path[-1].destination: len(path) for path in combined_moves(turn)}
    assert destinations == {20: 2, 18: 3, 16: 4}


def test_bearing_off_with_one_die_or_both_are_two_choices() -> None:
    board = board_from_points({5: 1, 1: 14}, {24: 15})
    turn = start_turn(board, "w", (4, 3), False, rule_set())
    offered = [p for p in combined_moves(turn) if p[0].source == 5 and p[-1].destination == 0]
    assert offered == [(Step(5, 1, 4), Step(1, 0, 3))]
    single = [s for s in legal_next_steps(turn) if s.source == 5 and s.destination == 0]
    assert single == []  # 4 and 3 are both smaller than 5: only the combination bears it off
    board = board_from_points({5: 1, 2: 14}, {24: 15})
    turn = start_turn(board, "w", (6, 3), False, rule_set())
    assert Step(5, 0, 6) in legal_next_steps(turn)
    assert (Step(5, 2, 3), Step(2, 0, 6)) in combined_moves(turn)


def other(point: int) -> int:
    """White's point `point` in Black's own numbering (docs/rules.md)."""
    return (point + 11) % 24 + 1


# --- Forced turns --------------------------------------------------------------------------------


def _race_state(board=None) -> MatchState:
    """White to roll (by default with two checkers left, on its 2 and 1, against a full Black
    home)."""
    state, _ = engine.begin(
        MatchState(rules=rule_set(), turn_seconds=60), dice=pairs((6, 2)), now=T0
    )
    game = state.game
    assert game is not None
    board = board or board_from_points({2: 1, 1: 1}, {6: 15})
    import dataclasses

    game = dataclasses.replace(
        game, board=board, turn_board=board, white_has_moved=True, black_has_moved=True
    )
    return dataclasses.replace(state, game=game)


def test_forced_turns_are_played_at_once_only_for_a_seat_that_asked() -> None:
    state = _race_state()
    # 6-5 bears off both checkers: one legal turn.
    assert engine.forced_turn(engine.roll(state, seat=0, dice=pairs((6, 5)), now=T0)[0])
    waiting, events = engine.roll(state, seat=0, dice=pairs((6, 5)), now=T0)
    assert waiting.game is not None and waiting.game.phase == "move"
    played, events = engine.roll(state, seat=0, dice=pairs((6, 5)), now=T0, forced=frozenset({0}))
    assert [type(e) for e in events][:3] == [engine.Rolled, Stepped, Stepped]
    assert played.status == "finished" and played.end_reason == "finished"
    turn = next(e for e in events if isinstance(e, TurnEnded))
    assert turn.by_server is False
    # The other seat's preference does not play this seat's turn.
    other_seat, _ = engine.roll(state, seat=0, dice=pairs((6, 5)), now=T0, forced=frozenset({1}))
    assert other_seat.game is not None and other_seat.game.phase == "move"


def test_a_roll_with_a_choice_is_left_to_the_player() -> None:
    state = _race_state(board_from_points({24: 13, 18: 1, 13: 1}, {24: 15}))
    rolled, events = engine.roll(state, seat=0, dice=pairs((5, 3)), now=T0, forced=frozenset({0}))
    assert engine.forced_turn(rolled) is None
    assert rolled.game is not None and rolled.game.phase == "move" and not rolled.game.steps


# --- The clocks' arithmetic ----------------------------------------------------------------------


def test_turn_clock_is_turn_time_then_reserve() -> None:
    control = TimeControl("turn", 60, 120)
    assert initial_reserve_ms(control) == 120_000
    assert turn_deadline(control, 120_000, T0, T0) == T0 + seconds(180)
    assert reserve_after(control, 120_000, T0, T0 + seconds(75)) == 105_000
    reading = read_clock(control, 120_000, T0, T0, T0 + seconds(75))
    assert (reading.turn_ms_left, reading.mover_reserve_ms, reading.deadline_ms_left) == (
        0, 105_000, 105_000,
    )  # fmt: skip
    assert turn_deadline(TimeControl("turn", None, 0), 0, T0, T0) is None


def test_nardeon_twelve_free_seconds_then_the_match_reserve_and_sixty_at_most() -> None:
    assert initial_reserve_ms(NARDEON) == 120_000
    # A full reserve: the 60 s cap comes first.
    assert turn_deadline(NARDEON, 120_000, T0, T0) == T0 + seconds(60)
    # 30 s of reserve left: 12 + 30 = 42 s.
    assert turn_deadline(NARDEON, 30_000, T0, T0) == T0 + seconds(42)
    assert turn_deadline(NARDEON, 0, T0, T0) == T0 + seconds(12)
    assert reserve_after(NARDEON, 120_000, T0, T0 + seconds(10)) == 120_000  # free time
    assert reserve_after(NARDEON, 120_000, T0, T0 + seconds(20)) == 112_000
    reading = read_clock(NARDEON, 30_000, T0, T0, T0 + seconds(5))
    assert (reading.turn_ms_left, reading.mover_reserve_ms, reading.deadline_ms_left) == (
        7_000, 30_000, 37_000,
    )  # fmt: skip
    assert NARDEON.expiry_loses and not OMERTA.expiry_loses


def test_omerta_ninety_seconds_from_the_last_step() -> None:
    assert initial_reserve_ms(OMERTA) == 0
    assert turn_deadline(OMERTA, 0, T0, T0 + seconds(50)) == T0 + seconds(140)
    assert reserve_after(OMERTA, 0, T0, T0 + seconds(500)) == 0
    reading = read_clock(OMERTA, 0, T0, T0 + seconds(50), T0 + seconds(80))
    assert (reading.turn_ms_left, reading.deadline_ms_left) == (60_000, 60_000)


def test_an_unknown_time_control_is_refused() -> None:
    with pytest.raises(ValueError, match="time control"):
        TimeControl("blitz")


# --- The clocks in a match -----------------------------------------------------------------------


def _begun(control: str, **options) -> MatchState:
    state = MatchState(rules=rule_set(**options), time_control=control)
    state, _ = engine.begin(state, dice=pairs((6, 2)), now=T0)
    return state


def test_nardeon_spends_the_reserve_and_loses_on_time() -> None:
    state = _begun("nardeon")
    assert state.reserve_ms == (120_000, 120_000)
    assert state.game is not None and state.game.turn_deadline == T0 + seconds(60)
    # White takes 50 s: 38 s of reserve spent.
    state, _ = engine.roll(state, seat=0, dice=pairs((6, 5)), now=T0 + seconds(40))
    state, _ = engine.step(state, seat=0, step=Step(24, 18, 6), dice=pairs(), now=T0)
    state, events = engine.step(
        state, seat=0, step=Step(18, 13, 5), dice=pairs(), now=T0 + seconds(50)
    )
    assert isinstance(events[-1], TurnEnded) and state.reserve_ms == (82_000, 120_000)
    # Black runs out at the 60 s cap: the match is lost on time, at once.
    black_start = T0 + seconds(50)
    assert state.game is not None and state.game.turn_deadline == black_start + seconds(60)
    with pytest.raises(engine.MatchRuleError):
        engine.timeout(state, dice=pairs(), now=black_start + seconds(59))
    over, events = engine.timeout(state, dice=pairs(), now=black_start + seconds(60))
    assert [type(e) for e in events] == [MatchOver]
    assert over.status == "finished" and over.end_reason == "time" and over.winner_seat == 0


def test_nardeon_with_little_reserve_left_has_a_short_deadline() -> None:
    import dataclasses

    state = dataclasses.replace(_begun("nardeon"), reserve_ms=(5_000, 120_000))
    state, _ = engine.roll(state, seat=0, dice=pairs((6, 5)), now=T0)
    # The deadline is set when a turn starts; the next turn of White's gets 12 + 5 s.
    state, _ = engine.step(state, seat=0, step=Step(24, 18, 6), dice=pairs(), now=T0)
    state, _ = engine.step(state, seat=0, step=Step(18, 13, 5), dice=pairs(), now=T0 + seconds(1))
    state, _ = engine.roll(state, seat=1, dice=pairs((6, 5)), now=T0 + seconds(2))
    state, _ = engine.step(state, seat=1, step=Step(24, 18, 6), dice=pairs(), now=T0 + seconds(2))
    state, _ = engine.step(state, seat=1, step=Step(18, 13, 5), dice=pairs(), now=T0 + seconds(3))
    assert state.game is not None and state.game.turn_deadline == T0 + seconds(3 + 12 + 5)


def test_omerta_restarts_after_each_step_but_not_after_an_undo() -> None:
    state = _begun("omerta")
    assert state.game is not None and state.game.turn_deadline == T0 + seconds(90)
    state, _ = engine.roll(state, seat=0, dice=pairs((3, 1)), now=T0 + seconds(30))
    assert state.game.turn_deadline == T0 + seconds(90)  # a roll is no step
    state, _ = engine.step(state, seat=0, step=Step(24, 21, 3), dice=pairs(), now=T0 + seconds(80))
    assert state.game.turn_deadline == T0 + seconds(170)
    undone, _ = engine.undo(state, seat=0)
    assert undone.game is not None and undone.game.turn_deadline == T0 + seconds(170)
    again, _ = engine.step(
        undone, seat=0, step=Step(24, 21, 3), dice=pairs(), now=T0 + seconds(100)
    )
    assert again.game is not None and again.game.turn_deadline == T0 + seconds(170)


def test_omerta_expiry_keeps_the_steps_and_the_server_plays_the_rest() -> None:
    state = _begun("omerta")
    state, _ = engine.roll(state, seat=0, dice=pairs((3, 1)), now=T0)
    state, _ = engine.step(state, seat=0, step=Step(24, 21, 3), dice=pairs(), now=T0 + seconds(5))
    late = T0 + seconds(95)
    with pytest.raises(engine.MatchRuleError):
        engine.timeout(state, dice=pairs(), now=late - seconds(1))
    after, events = engine.timeout(state, dice=pairs(), now=late)
    assert isinstance(events[0], TimedOut)
    turn = next(e for e in events if isinstance(e, TurnEnded))
    assert turn.steps[0] == Step(24, 21, 3) and len(turn.steps) == 2 and turn.by_server
    assert after.status == "active" and after.timeouts == (1, 0)


# --- Claiming an abandoned match -----------------------------------------------------------------


def test_claiming_an_abandoned_match_wins_it_with_reason_abandoned() -> None:
    state = _begun("turn")
    over, events = engine.claim_abandoned(
        state, seat=1, now=T0 + seconds(90), away_ms=60_000, window_ms=60_000
    )
    assert [type(e) for e in events] == [MatchOver]
    assert over.winner_seat == 1 and over.end_reason == "abandoned"
    with pytest.raises(engine.MatchRuleError):
        engine.claim_abandoned(over, seat=1, now=T0, away_ms=60_000, window_ms=60_000)
