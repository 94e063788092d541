"""Partial turns: legal next steps, play, undo, completion (docs/rules.md, A turn, item 7;
Platform rules)."""

from __future__ import annotations

import pytest

from nardy import (
    START_BOARD,
    TOURNAMENT,
    TRADITIONAL,
    IllegalMove,
    Step,
    board_from_points,
    index_to_own_point,
    is_turn_complete,
    legal_next_steps,
    other_side_point,
    own_point_to_index,
    play_step,
    remaining_dice,
    start_turn,
    undo_step,
)


def test_legal_next_steps_from_the_start() -> None:
    state = start_turn(START_BOARD, "w", (5, 3), False, TRADITIONAL)
    assert set(legal_next_steps(state)) == {Step(24, 19, 5), Step(24, 21, 3)}
    assert not is_turn_complete(state)


def test_play_step_then_the_head_is_closed() -> None:
    state = start_turn(START_BOARD, "w", (5, 3), False, TRADITIONAL)
    state = play_step(state, Step(24, 19, 5))
    assert legal_next_steps(state) == (Step(19, 16, 3),)
    assert remaining_dice(state) == (3,)
    with pytest.raises(IllegalMove, match="head"):
        play_step(state, Step(24, 21, 3))
    state = play_step(state, Step(19, 16, 3))
    assert is_turn_complete(state)
    assert state.board == board_from_points({24: 14, 16: 1}, {24: 15})
    with pytest.raises(IllegalMove, match="complete"):
        play_step(state, Step(16, 13, 3))


def test_a_step_that_would_lose_the_other_die_is_refused() -> None:
    # White on 13 and 1s; Black holds White's 2 and 3 and 7: only the 5 can be played (13-8),
    # then 8-2 is blocked. With 6-5 only the 5 plays... use a position where playing the
    # smaller die first would make the larger impossible:
    board = board_from_points({13: 1, 1: 14}, {14: 5, 15: 5, 24: 5})  # White's 2, 3 blocked
    state = start_turn(board, "w", (6, 5), False, TRADITIONAL)
    assert legal_next_steps(state) == (Step(13, 7, 6),)
    with pytest.raises(IllegalMove, match="complete legal turn"):
        play_step(state, Step(13, 8, 5))


def test_illegal_move_messages_name_the_reason() -> None:
    state = start_turn(START_BOARD, "w", (5, 3), False, TRADITIONAL)
    with pytest.raises(IllegalMove, match="no checker"):
        play_step(state, Step(20, 15, 5))
    with pytest.raises(IllegalMove, match="no die 6"):
        play_step(state, Step(24, 18, 6))
    with pytest.raises(IllegalMove, match="lands on point 19"):
        play_step(state, Step(24, 18, 5))


def test_undo_step_is_pure_and_restores_the_board() -> None:
    state = start_turn(START_BOARD, "w", (5, 3), False, TRADITIONAL)
    played = play_step(state, Step(24, 21, 3))
    undone = undo_step(played)
    assert undone == state
    assert played.steps == (Step(24, 21, 3),)
    with pytest.raises(IllegalMove):
        undo_step(state)


def test_tournament_rule_set_forbids_undo_as_data() -> None:
    assert TRADITIONAL.undo_allowed and not TOURNAMENT.undo_allowed


def test_a_pass_is_complete_immediately() -> None:
    board = board_from_points({24: 15}, {24: 14, 6: 1})
    state = start_turn(board, "w", (6, 6), False, TRADITIONAL)
    assert legal_next_steps(state) == ()
    assert is_turn_complete(state)


def test_doubles_take_four_steps() -> None:
    board = board_from_points({24: 13, 18: 2}, {24: 15})
    state = start_turn(board, "w", (2, 2), False, TRADITIONAL)
    for _ in range(4):
        assert not is_turn_complete(state)
        state = play_step(state, legal_next_steps(state)[0])
    assert is_turn_complete(state)
    assert remaining_dice(state) == ()


@pytest.mark.parametrize("side", ["w", "b"])
def test_point_index_helpers_round_trip(side) -> None:
    for point in range(1, 25):
        assert index_to_own_point(side, own_point_to_index(side, point)) == point
    assert own_point_to_index("w", 24) == 23 and own_point_to_index("b", 24) == 11
    assert other_side_point(24) == 12 and other_side_point(12) == 24
    assert own_point_to_index("b", 1) == own_point_to_index("w", other_side_point(1))


def test_start_turn_validates_its_inputs() -> None:
    with pytest.raises(ValueError):
        start_turn([0] * 23, "w", (1, 2), False, TRADITIONAL)
    with pytest.raises(ValueError):
        start_turn(START_BOARD, "x", (1, 2), False, TRADITIONAL)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        start_turn(START_BOARD, "w", (0, 2), False, TRADITIONAL)
