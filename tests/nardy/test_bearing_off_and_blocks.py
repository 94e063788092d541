"""Table-driven cases for bearing off and the six-point block (docs/rules.md, A turn, 6 and 5)."""

from __future__ import annotations

import pytest

from nardy import (
    TOURNAMENT,
    TRADITIONAL,
    Board,
    Side,
    Step,
    board_from_points,
    borne_off,
    has_illegal_block,
    legal_end_boards,
    legal_turns,
    own_counts,
)


def white_points(board: Board) -> dict[int, int]:
    counts = own_counts(board, "w")
    return {point: counts[point] for point in range(1, 25) if counts[point]}


def ends(board: Board, side: Side, dice: tuple[int, int], rules=TRADITIONAL) -> frozenset[Board]:
    fast = legal_end_boards(board, side, dice, False, rules)
    assert fast == set(legal_turns(board, side, dice, False, rules))
    return fast


def first_steps(board: Board, side: Side, dice: tuple[int, int], rules=TRADITIONAL) -> set[Step]:
    turns = legal_turns(board, side, dice, False, rules)
    return {sequence[0] for sequences in turns.values() for sequence in sequences}


BLACK_AT_HOME = {24: 15}  # Black's head is White's 12: out of the way of White's home

# --- Bearing off -------------------------------------------------------------------------------


def test_a_six_bears_off_from_point_four_when_five_and_six_are_empty() -> None:
    board = board_from_points({4: 1, 3: 2, 1: 12}, BLACK_AT_HOME)
    assert Step(4, 0, 6) in first_steps(board, "w", (6, 1))
    assert board_from_points({3: 1, 2: 1, 1: 12}, BLACK_AT_HOME) in ends(board, "w", (6, 1))
    # The 6 cannot bear off from 3 while 4 is occupied.
    assert Step(3, 0, 6) not in first_steps(board, "w", (6, 1))


def test_the_die_must_move_inside_home_while_a_checker_stands_higher() -> None:
    board = board_from_points({6: 1, 3: 14}, BLACK_AT_HOME)
    steps = first_steps(board, "w", (5, 4))
    assert Step(3, 0, 5) not in steps and Step(3, 0, 4) not in steps
    assert Step(6, 1, 5) in steps and Step(6, 2, 4) in steps
    # Once the 6 has moved, the other die may bear off from the (new) highest point.
    turns = legal_turns(board, "w", (5, 4), False, TRADITIONAL)
    assert any(seq == (Step(6, 1, 5), Step(3, 0, 4)) for seqs in turns.values() for seq in seqs)


def test_exact_bear_off_is_allowed_even_with_checkers_higher() -> None:
    board = board_from_points({6: 1, 3: 14}, BLACK_AT_HOME)
    assert Step(3, 0, 3) in first_steps(board, "w", (3, 1))


def test_bearing_off_is_not_compulsory() -> None:
    board = board_from_points({3: 1, 2: 14}, BLACK_AT_HOME)
    found = ends(board, "w", (2, 1))
    assert any(borne_off(end, "w") == 0 for end in found)  # e.g. 3-1 and 2-1 inside home
    assert any(borne_off(end, "w") == 1 for end in found)  # or 2 off and 3-2


def test_no_bearing_off_while_a_checker_is_outside_home() -> None:
    board = board_from_points({13: 1, 2: 14}, BLACK_AT_HOME)
    assert all(borne_off(end, "w") == 0 for end in ends(board, "w", (2, 1)))


def test_the_last_checker_comes_home_and_another_bears_off_in_the_same_turn() -> None:
    board = board_from_points({8: 1, 1: 14}, BLACK_AT_HOME)
    found = ends(board, "w", (2, 1))
    target = board_from_points({6: 1, 1: 13}, BLACK_AT_HOME)
    assert target in found
    assert (Step(8, 6, 2), Step(1, 0, 1)) in legal_turns(board, "w", (2, 1), False, TRADITIONAL)[
        target
    ]


def test_a_larger_die_bears_off_from_the_highest_point_after_coming_home() -> None:
    board = board_from_points({8: 1, 1: 14}, BLACK_AT_HOME)
    found = ends(board, "w", (6, 5))
    # 8-2 with the 6 then the 5 bears off from 2 (the highest), or 8-3 then the 6 from 3.
    assert found == {board_from_points({1: 14}, BLACK_AT_HOME)}


def test_bearing_off_for_black_uses_blacks_numbering() -> None:
    board = board_from_points({24: 15}, {4: 1, 1: 14})
    found = legal_end_boards(board, "b", (6, 6), False, TRADITIONAL)
    assert found == {board_from_points({24: 15}, {1: 11})}


# --- Six-point block ---------------------------------------------------------------------------

# White holds its 11, 10, 9, 7 and 6: along Black's path those are Black's 23..18 without 20
# (White's 8). All of Black's checkers are on its head (Black's 24 = White's 12), behind them.
BLOCK_BASE = {11: 2, 10: 2, 9: 2, 7: 2, 6: 2}


def block_board(extra: dict[int, int], black: dict[int, int]) -> Board:
    white = dict(BLOCK_BASE)
    for point, count in extra.items():
        white[point] = white.get(point, 0) + count
    return board_from_points(white, black)


def holds_block(board: Board) -> bool:
    points = white_points(board)
    return all(points.get(p) for p in (11, 10, 9, 8, 7, 6))


@pytest.mark.parametrize("rules", [TRADITIONAL, TOURNAMENT])
def test_six_block_refused_when_no_opposing_checker_is_past_it(rules) -> None:
    board = block_board({13: 1, 24: 4}, {24: 15})
    found = ends(board, "w", (5, 1), rules)  # 13-8 would close 11..6
    assert found
    assert not any(holds_block(end) for end in found)
    assert not any(has_illegal_block(end, "w") for end in found)


@pytest.mark.parametrize("rules", [TRADITIONAL, TOURNAMENT])
def test_six_block_allowed_once_one_opposing_checker_is_past_it(rules) -> None:
    # One Black checker on Black's 5 (White's 17): past the block, nearer Black's home.
    board = block_board({13: 1, 24: 4}, {24: 14, 5: 1})
    found = ends(board, "w", (5, 1), rules)
    assert any(holds_block(end) for end in found)
    assert not has_illegal_block(next(end for end in found if holds_block(end)), "w")


def test_a_temporary_block_is_allowed_only_with_end_of_turn() -> None:
    # 14-8 (the 6) closes 11..6 for a moment; 8-6 (the 2) opens it again. The other order
    # is impossible: 14-12 lands on Black's head.
    board = block_board({14: 1, 24: 4}, {24: 15})
    through_block = board_from_points({11: 2, 10: 2, 9: 2, 7: 2, 6: 3, 24: 4}, {24: 15})
    assert through_block in ends(board, "w", (6, 2), TRADITIONAL)
    assert through_block not in ends(board, "w", (6, 2), TOURNAMENT)
    assert Step(14, 8, 6) not in first_steps(board, "w", (6, 2), TOURNAMENT)


def test_a_block_wrapping_past_the_head_counts() -> None:
    # White's 3, 2, 1, 24, 23, 22 are Black's 15..10: consecutive along Black's path.
    black_behind = {24: 15}
    board = board_from_points({24: 5, 23: 2, 22: 2, 2: 2, 1: 2, 5: 1, 8: 1}, black_behind)
    wrapped = board_from_points({24: 5, 23: 2, 22: 2, 3: 1, 2: 2, 1: 2, 7: 1}, black_behind)
    assert has_illegal_block(wrapped, "w")
    found = ends(board, "w", (2, 1))
    assert wrapped not in found
    assert not any(has_illegal_block(end, "w") for end in found)
    # With one Black checker past it (Black's 5 = White's 17) the same block is fine.
    black_past = {24: 14, 5: 1}
    board = board_from_points({24: 5, 23: 2, 22: 2, 2: 2, 1: 2, 5: 1, 8: 1}, black_past)
    wrapped = board_from_points({24: 5, 23: 2, 22: 2, 3: 1, 2: 2, 1: 2, 7: 1}, black_past)
    assert not has_illegal_block(wrapped, "w")
    assert wrapped in ends(board, "w", (2, 1))


def test_six_points_across_the_end_of_the_opponents_path_are_no_block() -> None:
    # White's 16..11 are Black's 4..1 and then 24, 23: not consecutive along Black's path.
    board = board_from_points({16: 3, 15: 3, 14: 3, 13: 2, 12: 2, 11: 2}, {20: 15})
    assert not has_illegal_block(board, "w")


def test_a_block_of_seven_needs_an_opposing_checker_past_all_of_it() -> None:
    board = board_from_points({11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 3}, {24: 15})
    assert has_illegal_block(board, "w")
    past = board_from_points({11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 3}, {24: 14, 6: 1})
    assert not has_illegal_block(past, "w")  # Black's 6 (White's 18) is past White's 11..5


def test_five_in_a_row_is_always_allowed() -> None:
    board = board_from_points({11: 3, 10: 3, 9: 3, 8: 3, 7: 3}, {24: 15})
    assert not has_illegal_block(board, "w")


def test_blocks_are_checked_for_black_too() -> None:
    # Black's 11..6 are White's 23..18; White all on its head (White's 24), behind them.
    board = board_from_points({24: 15}, {11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 24: 3})
    assert has_illegal_block(board, "b")
    white_past = board_from_points({24: 14, 17: 1}, {11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 24: 3})
    assert not has_illegal_block(white_past, "b")


@pytest.mark.parametrize("rules", [TRADITIONAL, TOURNAMENT])
def test_a_block_completed_by_one_checker_playing_both_dice(rules) -> None:
    # Found by auto-play: White holds its 18, 16, 15, 14, 13 (Black's 6, 4..1); 24-22-17 with
    # 2-5 would close Black's whole home while every Black checker is behind it.
    board = (-1, -1, -1, 1, -1, -3, -1, -1, -2, 1, 1, -4, 1, 1, 1, 1, 0, 2, 0, 1, 1, 0, 0, 4)
    closing = (-1, -1, -1, 1, -1, -3, -1, -1, -2, 1, 1, -4, 1, 1, 1, 1, 1, 2, 0, 1, 1, 0, 0, 3)
    assert has_illegal_block(closing, "w")
    found = ends(board, "w", (2, 5), rules)
    assert closing not in found
    assert not any(has_illegal_block(end, "w") for end in found)
