"""The bots' turn choice (nardy/bots.py): every level plays a complete legal turn on random
and hand-made positions under both rule sets, the same seed gives the same turn, and Master keeps
to its search budget (counted in evaluated positions: the engine reads no clock; the time per
turn is measured by bench/bot_strength.py)."""

from __future__ import annotations

import pytest

from nardy import (
    START_BOARD,
    TOURNAMENT,
    TRADITIONAL,
    board_from_points,
    choose_turn,
    evaluate,
    is_turn_complete,
    legal_end_boards,
    play_step,
    start_turn,
)
from nardy.bench import self_play_positions
from nardy.bots import (
    BEGINNER,
    CLUB,
    EXPERT,
    LEVELS,
    MASTER,
    ROLLS,
    choose_bot_turn,
    choose_end_board,
    master_search,
)
from nardy.fastgen import end_boards_and_dice_played

RULE_SETS = {"traditional": TRADITIONAL, "tournament": TOURNAMENT}


def _assert_legal(level, board, side, dice, first_turn, rules, seed=0):
    steps = choose_bot_turn(level, board, side, dice, first_turn, rules, seed=seed)
    state = start_turn(board, side, dice, first_turn, rules)
    for step in steps:
        state = play_step(state, step)  # raises IllegalMove on an illegal step
    assert is_turn_complete(state)
    assert state.board in legal_end_boards(board, side, dice, first_turn, rules)
    return steps


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules_name", sorted(RULE_SETS))
def test_each_level_plays_a_legal_turn_on_random_positions(level, rules_name):
    rules = RULE_SETS[rules_name]
    positions = self_play_positions(11, 2, rules)
    # The two searching levels cost up to a tenth of a second a turn: every fourth position.
    for index, position in enumerate(positions[:: 4 if level in (MASTER, EXPERT) else 1]):
        _assert_legal(level, *position, seed=index)


# Hand-made positions, each side's checkers by ITS OWN point numbers.
HAND_MADE = [
    # The first turn with 6-6: two checkers may leave the head (docs/rules.md, A turn, item 4).
    ("w", START_BOARD, (6, 6), True),
    ("b", START_BOARD, (3, 3), True),
    # Bearing off with one checker left outside on the 7-point.
    ("w", board_from_points({7: 1, 6: 3, 5: 3, 3: 4, 1: 2}, {2: 5, 1: 5}), (6, 1), False),
    # Every checker at home: bearing off from below the die.
    ("b", board_from_points({12: 15}, {3: 2, 2: 4, 1: 3}), (6, 5), False),
    # A wall of White points in front of Black's head: Black can barely move.
    (
        "b",
        board_from_points({24: 4, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 6: 1}, {24: 14, 17: 1}),
        (6, 5),
        False,
    ),
    # Five points in a row for White with Black behind them: the sixth would be an illegal
    # block (end of turn or at every step, by the rule set).
    (
        "w",
        board_from_points({24: 5, 11: 2, 10: 2, 9: 2, 8: 2, 6: 2}, {24: 15}),
        (4, 2),
        False,
    ),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules_name", sorted(RULE_SETS))
@pytest.mark.parametrize("case", range(len(HAND_MADE)))
def test_each_level_plays_a_legal_turn_on_hand_made_positions(level, rules_name, case):
    side, board, dice, first_turn = HAND_MADE[case]
    _assert_legal(level, board, side, dice, first_turn, RULE_SETS[rules_name])


def test_a_pass_is_an_empty_turn_at_every_level():
    # Black's checkers are all on its head and White holds the point one pip ahead: 1-1 is
    # blocked (one checker per turn leaves the head).
    board = board_from_points({24: 14, 11: 1}, {24: 15})
    dice = (1, 1)
    assert legal_end_boards(board, "b", dice, False, TRADITIONAL) == frozenset({board})
    for level in LEVELS:
        assert choose_bot_turn(level, board, "b", dice, False, TRADITIONAL) == ()


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_turn(level):
    positions = self_play_positions(5, 1, TRADITIONAL)[:: 6 if level in (MASTER, EXPERT) else 1]
    for index, position in enumerate(positions):
        first = choose_bot_turn(level, *position, seed=index)
        assert choose_bot_turn(level, *position, seed=index) == first


def test_the_beginner_plays_differently_with_other_seeds():
    board = board_from_points({24: 13, 20: 1, 19: 1}, {24: 14, 23: 1})
    ends = legal_end_boards(board, "w", (5, 3), False, TRADITIONAL)
    assert len(ends) > 1
    chosen = {
        choose_end_board(BEGINNER, board, "w", (5, 3), False, TRADITIONAL, seed=seed)[0]
        for seed in range(40)
    }
    assert len(chosen) > 1 and chosen <= ends


def test_club_is_the_auto_move_chooser():
    """One code path: the timeout auto-move (chooser.choose_turn) is the Club level."""
    for position in self_play_positions(3, 1, TOURNAMENT):
        assert choose_bot_turn(CLUB, *position) == choose_turn(*position)


def test_master_keeps_to_its_budget():
    position = next(p for p in self_play_positions(7, 1, TRADITIONAL) if not p.first_turn)
    ends, _ = end_boards_and_dice_played(*position)
    assert len(ends) > 2
    _, unlimited = master_search(ends, position.side, position.rules, budget=10**9)
    for budget in (0, 50, 500, unlimited // 2):
        _, spent = master_search(ends, position.side, position.rules, budget=budget)
        # It stops at the first roll past the budget: at most one roll's replies more.
        largest_reply_set = max(
            len(legal_end_boards(end, "b" if position.side == "w" else "w", dice, False,
                                 position.rules))
            for end in ends for dice, _ in ROLLS
        )  # fmt: skip
        assert spent <= budget + largest_reply_set
    assert master_search(ends, position.side, position.rules, budget=0)[1] == 0


def test_master_with_no_budget_falls_back_to_club():
    for position in self_play_positions(9, 1, TRADITIONAL)[:20]:
        master = choose_end_board(MASTER, *position, budget=0)
        assert master == choose_end_board(CLUB, *position)


def test_master_sees_the_opponents_replies():
    """2-ply can disagree with the static choice: on some self-play position it does."""
    positions = self_play_positions(13, 2, TRADITIONAL)
    differs = sum(
        choose_end_board(MASTER, *p)[0] != choose_end_board(CLUB, *p)[0] for p in positions[::3]
    )
    assert differs > 0


def test_the_evaluation_is_symmetric_and_prefers_the_race_leader():
    for position in self_play_positions(2, 1, TRADITIONAL)[::5]:
        assert evaluate(position.board, "w") == pytest.approx(-evaluate(position.board, "b"))
    ahead = board_from_points({1: 15}, {6: 15})  # a pure race, White far ahead
    assert evaluate(ahead, "w") > 0 > evaluate(ahead, "b")


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_bot_turn("grandmaster", START_BOARD, "w", (3, 1), True, TRADITIONAL)
