"""The calibrated equity (nardy/equity.py) and the turn analysis (nardy/analysis.py) on
hand-made positions whose answer is known: a finished game is scored exactly, a bigger race lead
is worth more, a forced turn loses nothing, bearing off the last checkers beats leaving one, and a
bot's turns lose far less than a random mover's. Calibration itself is measured on held-out
games by bench/equity_calibration.py (figures, not assertions)."""

from __future__ import annotations

import random

import pytest

from nardy import START_BOARD, TRADITIONAL, board_from_points, game_result, opponent_of
from nardy.analysis import (
    BLUNDER,
    DOUBTFUL,
    MISTAKE,
    analyse_turn,
    mark_of,
    performance_rating,
)
from nardy.bots import BEGINNER, MASTER, choose_end_board
from nardy.equity import estimate
from nardy.fastgen import legal_end_boards


def _mirror(board):
    """The same position with the colours swapped (White's point p holds what Black's p held)."""
    return tuple(-board[(index + 12) % 24] for index in range(24))


def test_a_finished_game_is_scored_exactly() -> None:
    mars = board_from_points({}, {24: 15})  # White is off, Black bore nothing off
    oin = board_from_points({}, {3: 2})
    assert estimate(mars, "w").equity == 2.0 and estimate(mars, "b").equity == -2.0
    assert estimate(oin, "w").equity == 1.0 and estimate(oin, "b").equity == -1.0


@pytest.mark.parametrize("seed", range(6))
def test_estimates_are_probabilities_and_colour_blind(seed: int) -> None:
    rng = random.Random(seed)
    board, side, moved = START_BOARD, "w", {"w": False, "b": False}
    while game_result(board) is None:
        guess = estimate(board, side)
        assert 0.0 <= guess.lose_mars <= 1.0 - guess.win <= 1.0
        assert 0.0 <= guess.win_mars <= guess.win
        assert -2.0 <= guess.equity <= 2.0
        assert estimate(_mirror(board), opponent_of(side)) == guess
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        board, _ = choose_end_board(BEGINNER, board, side, dice, not moved[side], TRADITIONAL,
                                    seed=rng.getrandbits(32))  # fmt: skip
        moved[side] = True
        side = opponent_of(side)


def test_a_bigger_race_lead_is_worth_more() -> None:
    chances = [
        estimate(board_from_points({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5 - k, 3: k}), "b").win
        for k in range(6)
    ]
    assert chances == sorted(chances) and chances[-1] - chances[0] > 0.05


def test_a_forced_turn_loses_nothing() -> None:
    board = board_from_points({2: 1, 1: 1}, {6: 15})
    (only,) = legal_end_boards(board, "w", (6, 6), False, TRADITIONAL)
    turn = analyse_turn(board, "w", (6, 6), False, only, TRADITIONAL)
    assert turn.forced and turn.loss == 0.0 and turn.mark is None


def test_leaving_a_checker_when_both_could_go_off_is_a_blunder() -> None:
    """White bears its last two checkers off with 2-1 (a win with mars: Black has none off) or
    plays 2->1 and one off, leaving a checker: Black cannot finish in one roll, so White still
    wins, by mars only when Black rolls no 4, 5 or 6 (9 rolls in 36): about 0.75 lost."""
    board = board_from_points({2: 1, 1: 1}, {6: 5, 5: 5, 4: 5})
    ends = legal_end_boards(board, "w", (2, 1), False, TRADITIONAL)
    won = board_from_points({}, {6: 5, 5: 5, 4: 5})
    left = board_from_points({1: 1}, {6: 5, 5: 5, 4: 5})
    assert won in ends and left in ends
    best = analyse_turn(board, "w", (2, 1), False, won, TRADITIONAL)
    assert best.played == 2.0 and best.loss == 0.0 and best.mark is None
    blunder = analyse_turn(board, "w", (2, 1), False, left, TRADITIONAL)
    assert blunder.best_board == won and blunder.depth == 2
    assert 0.5 < blunder.loss <= 1.0 and blunder.mark == BLUNDER


def test_a_board_the_dice_cannot_reach_is_refused() -> None:
    with pytest.raises(ValueError, match="not a legal end"):
        analyse_turn(START_BOARD, "w", (6, 5), True, START_BOARD, TRADITIONAL)


def test_marks_and_the_performance_rating_follow_the_documented_scale() -> None:
    assert [mark_of(loss) for loss in (0.0, 0.039, 0.04, 0.079, 0.08, 0.159, 0.16, 1.5)] == [
        None, None, DOUBTFUL, DOUBTFUL, MISTAKE, MISTAKE, BLUNDER, BLUNDER,
    ]  # fmt: skip
    assert performance_rating([]) is None
    assert performance_rating([0.0, 0.02]) == pytest.approx(5.0)


def test_a_budget_too_small_for_two_ply_compares_at_one_ply() -> None:
    dice = (6, 5)
    ends = sorted(legal_end_boards(START_BOARD, "w", dice, True, TRADITIONAL))
    turn = analyse_turn(START_BOARD, "w", dice, True, ends[0], TRADITIONAL, budget=1)
    assert turn.depth == 1 and turn.loss >= 0.0


def test_master_loses_far_less_than_a_random_mover() -> None:
    rng = random.Random(7)
    levels = {"w": MASTER, "b": BEGINNER}
    losses = {"w": [], "b": []}
    board, side, moved = START_BOARD, "w", {"w": False, "b": False}
    while game_result(board) is None:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        after, _ = choose_end_board(levels[side], board, side, dice, not moved[side], TRADITIONAL,
                                    seed=rng.getrandbits(32), budget=4000)  # fmt: skip
        turn = analyse_turn(board, side, dice, not moved[side], after, TRADITIONAL, budget=3000)
        assert turn.loss >= 0.0
        if after != turn.best_board:
            assert turn.played <= turn.best
        if not turn.forced:
            losses[side].append(turn.loss)
        board, moved[side], side = after, True, opponent_of(side)
    master, random_mover = performance_rating(losses["w"]), performance_rating(losses["b"])
    assert random_mover > 3 * master
