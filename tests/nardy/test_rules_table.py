"""Table-driven cases, one per rule of docs/rules.md "A turn", with the rule pages' examples."""

from __future__ import annotations

import pytest

from nardy import (
    START_BOARD,
    TOURNAMENT,
    TRADITIONAL,
    Board,
    Side,
    Step,
    board_from_points,
    legal_end_boards,
    legal_turns,
    own_counts,
    pip_count,
    rule_set,
)

GENERALISED = rule_set("traditional", head_exception="generalised")


def white_points(board: Board) -> dict[int, int]:
    counts = own_counts(board, "w")
    return {point: counts[point] for point in range(1, 25) if counts[point]}


def black_points(board: Board) -> dict[int, int]:
    counts = own_counts(board, "b")
    return {point: counts[point] for point in range(1, 25) if counts[point]}


def ends(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool = False, rules=TRADITIONAL
):
    fast = legal_end_boards(board, side, dice, first_turn, rules)
    # Every case also checks the literal enumerator agrees with the fast generator.
    assert fast == set(legal_turns(board, side, dice, first_turn, rules))
    return fast


# --- Head rule and the first-turn exception (docs/rules.md, A turn, item 4) -----------------------


@pytest.mark.parametrize("rules", [TRADITIONAL, TOURNAMENT, GENERALISED])
def test_first_roll_six_six_plays_two_checkers_to_point_18_only(rules) -> None:
    (end,) = ends(START_BOARD, "w", (6, 6), first_turn=True, rules=rules)
    assert white_points(end) == {24: 13, 18: 2}
    (sequence,) = legal_turns(START_BOARD, "w", (6, 6), True, rules)[end]
    assert sequence == (Step(24, 18, 6), Step(24, 18, 6))


def test_black_first_roll_six_six_after_white_moved() -> None:
    after_white = board_from_points({24: 14, 13: 1}, {24: 15})
    (end,) = ends(after_white, "b", (6, 6), first_turn=True)
    assert black_points(end) == {24: 13, 18: 2}


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((4, 4), [{24: 13, 16: 2}]),
        ((3, 3), [{24: 13, 18: 2}, {24: 13, 21: 1, 15: 1}]),
    ],
)
def test_four_four_and_three_three_take_two_from_the_head_on_the_first_turn(dice, expected) -> None:
    found = sorted(white_points(end).items() for end in ends(START_BOARD, "w", dice, True))
    assert found == sorted(points.items() for points in expected)


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((4, 4), {24: 14, 16: 1}),  # 24-20-16, the third 4 would land on Black's head
        ((3, 3), {24: 14, 15: 1}),  # 24-21-18-15, the fourth 3 would land on Black's head
        ((6, 6), {24: 14, 18: 1}),
    ],
)
def test_later_turns_take_only_one_checker_from_the_head(dice, expected) -> None:
    (end,) = ends(START_BOARD, "w", dice, first_turn=False)
    assert white_points(end) == expected


def test_other_doubles_on_the_first_turn_take_one_head_checker() -> None:
    (end,) = ends(START_BOARD, "w", (5, 5), first_turn=True)
    assert white_points(end) == {24: 14, 4: 1}  # 24-19-14-9-4 with one checker


def test_a_non_double_leaves_the_head_once() -> None:
    (end,) = ends(START_BOARD, "w", (5, 3), first_turn=False)
    assert white_points(end) == {24: 14, 16: 1}


# --- Generalised head exception (Ukrainian text) ----------------------------------------------

# White's 6-2 played 24-18-16: White's 16 is Black's 4, so a lone Black checker playing 5-5
# (24-19-14-9-4) is stopped after three fives.
WHITE_ON_BLACKS_FOUR = board_from_points({24: 14, 16: 1}, {24: 15})


def test_classic_head_exception_plays_only_three_fives() -> None:
    (end,) = ends(WHITE_ON_BLACKS_FOUR, "b", (5, 5), first_turn=True, rules=TRADITIONAL)
    assert black_points(end) == {24: 14, 9: 1}


def test_generalised_head_exception_allows_a_second_head_checker() -> None:
    found = ends(WHITE_ON_BLACKS_FOUR, "b", (5, 5), first_turn=True, rules=GENERALISED)
    assert sorted(sorted(black_points(end).items()) for end in found) == [
        [(9, 1), (19, 1), (24, 13)],
        [(14, 2), (24, 13)],
    ]
    # ... and only on the first turn.
    (later,) = ends(WHITE_ON_BLACKS_FOUR, "b", (5, 5), first_turn=False, rules=GENERALISED)
    assert black_points(later) == {24: 14, 9: 1}


def test_generalised_head_exception_for_a_non_double() -> None:
    # White on Black's 13 stops 24-18-13 and 24-19-13: one head checker plays only one die.
    board = board_from_points({1: 1, 24: 14}, {24: 15})
    (classic,) = ends(board, "b", (6, 5), first_turn=True, rules=TRADITIONAL)
    assert black_points(classic) == {24: 14, 18: 1}  # the larger die
    (generalised,) = ends(board, "b", (6, 5), first_turn=True, rules=GENERALISED)
    assert black_points(generalised) == {24: 13, 18: 1, 19: 1}


# --- Moving: landing, the intermediate point (docs/rules.md, A turn, item 2) ----------------------


def test_five_three_as_one_checker_through_a_free_intermediate_point() -> None:
    # Black on White's 8 (the 5 first) but White's 10 free (the 3 first): 13-10-5 is fine.
    board = board_from_points({13: 1, 24: 14}, {20: 1, 24: 14})  # Black's 20 = White's 8
    assert board[7] == -1
    through = board_from_points({5: 1, 24: 14}, {20: 1, 24: 14})
    assert through in ends(board, "w", (5, 3))
    turns = legal_turns(board, "w", (5, 3), False, TRADITIONAL)
    assert turns[through] == ((Step(13, 10, 3), Step(10, 5, 5)),)


def test_five_three_refused_when_both_intermediate_points_are_blocked() -> None:
    board = board_from_points({13: 1, 24: 14}, {20: 1, 22: 1, 24: 13})  # White's 8 and 10
    assert board[7] == -1 and board[9] == -1
    found = ends(board, "w", (5, 3))
    assert not any(white_points(end).get(5) for end in found)


def test_never_lands_on_a_single_opposing_checker() -> None:
    board = board_from_points({24: 15}, {24: 14, 7: 1})  # Black's 7 is White's 19
    found = ends(board, "w", (5, 5))
    assert all(end[18] == -1 for end in found)
    (end,) = found
    assert white_points(end) == {24: 15}  # 24-19 is blocked: pass


# --- Maximum dice and the higher die (docs/rules.md, A turn, item 3) ------------------------------

# White: one runner on 13, the rest on point 1 (cannot bear off: the runner is not home).
# Black holds White's 2 and 3, so 13-7-2 and 13-8-2 are both impossible: only one die plays.
ONE_DIE_ONLY = board_from_points({13: 1, 1: 14}, {14: 5, 15: 5, 24: 5})


def test_the_higher_die_when_only_one_can_be_played() -> None:
    (end,) = ends(ONE_DIE_ONLY, "w", (6, 5))
    assert white_points(end) == {7: 1, 1: 14}
    assert legal_turns(ONE_DIE_ONLY, "w", (6, 5), False, TRADITIONAL)[end] == ((Step(13, 7, 6),),)


def test_the_smaller_die_when_the_higher_cannot_be_played() -> None:
    board = board_from_points({13: 1, 1: 14}, {14: 5, 15: 5, 19: 5})  # also White's 7
    (end,) = ends(board, "w", (6, 5))
    assert white_points(end) == {8: 1, 1: 14}


def test_both_dice_must_be_played_when_possible() -> None:
    # As above, but a second runner on 10 lets both dice be played by two checkers.
    board = board_from_points({13: 1, 10: 1, 1: 13}, {14: 5, 15: 5, 24: 5})
    found = ends(board, "w", (6, 5))
    assert found
    assert all(pip_count(board, "w") - pip_count(end, "w") == 11 for end in found)


def test_passing_when_nothing_can_be_played() -> None:
    board = board_from_points({24: 15}, {24: 14, 6: 1})  # Black's 6 is White's 18
    assert ends(board, "w", (6, 6)) == {board}
    assert legal_turns(board, "w", (6, 6), False, TRADITIONAL) == {board: ((),)}
