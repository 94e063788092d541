"""Calibrated winning chances and cubeless equity of a position, for the side about to roll.

``estimate(board, side)`` gives the probability that ``side`` (on roll, before rolling) wins the
game, wins with mars and loses with mars, and the cubeless equity in points that follows
(docs/rules.md, "Who starts, colours, games and matches": oin 1, mars 2, no triple win):

    equity = P(win) - P(lose) + P(win with mars) - P(lose with mars)

Each probability is a logistic model over features of the static evaluation (evaluation.py):
the race lead scaled by the race's spread (the normal approximation of cube_advice.py), the
contact score, the pips, the head and the checkers still outside home. The coefficients are
fitted on self-play games by ``bench/fit_equity.py`` (its seed and command are in
equity_params.py) and their calibration on held-out games is printed by
``bench/equity_calibration.py``. After the logistic, a monotone piecewise-linear map fitted on
the training games' own predictions (``WIN_MAP``; never on the held-out ones) corrects what the
logistic's shape cannot (Platt scaling followed by isotonic binned recalibration;
Zadrozny and Elkan, "Transforming classifier scores into accurate multiclass probability
estimates", KDD 2002).

Pure: no Django, no clock, no randomness.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from operator import mul

from .board import CHECKERS_PER_SIDE, WHITE, Board, Side
from .equity_params import LOSE_MARS, WIN, WIN_MAP, WIN_MARS
from .evaluation import evaluate_counts, in_race, side_counts

HOME_TOP = 6
# Being on roll is worth about half an average Long Nardy roll (8 1/6 pips; cube_advice.py).
ON_ROLL_PIPS = 4.0


@dataclass(frozen=True, slots=True)
class Estimate:
    """For the side on roll: P(win), P(win with mars), P(lose with mars), equity in points."""

    win: float
    win_mars: float
    lose_mars: float

    @property
    def equity(self) -> float:
        return 2.0 * self.win - 1.0 + self.win_mars - self.lose_mars


_POINT_NUMBERS = tuple(range(25))
_BEYOND_HOME = tuple(max(point - HOME_TOP, 0) for point in range(25))


def _mars_pips(counts: list[int]) -> int:
    """Pips a side needs before it can bear its first checker off: every checker home, then the
    lowest home checker off (docs/rules.md, A turn, item 6)."""
    outside = sum(map(mul, _BEYOND_HOME, counts))
    lowest = next((point for point in range(1, HOME_TOP + 1) if counts[point]), HOME_TOP)
    return outside + lowest


Features = tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]


def features(board: Board, side: Side) -> Features:
    """The three models' feature vectors (win, win with mars, lose with mars) for ``side`` on
    roll; the mars vectors are empty when that mars is no longer possible (a checker is off)."""
    white, black = side_counts(board)
    mine, theirs = (white, black) if side == WHITE else (black, white)
    return _features(mine, theirs, sum(mine), sum(theirs))


def _features(mine: list[int], theirs: list[int], my_on: int, their_on: int) -> Features:
    my_pips = sum(map(mul, _POINT_NUMBERS, mine))
    their_pips = sum(map(mul, _POINT_NUMBERS, theirs))
    race = in_race(mine, theirs)
    static = evaluate_counts(mine, theirs)
    spread = math.sqrt(my_pips + their_pips + 1.0)
    lead = their_pips - my_pips + ON_ROLL_PIPS
    contact = 0.0 if race else 1.0
    my_heads = max(mine[24] - 1, 0) / CHECKERS_PER_SIDE
    their_heads = max(theirs[24] - 1, 0) / CHECKERS_PER_SIDE
    win = (
        1.0,
        race * lead / spread if race else 0.0,
        contact * lead / spread,
        contact * static / 20.0,
        contact,
        contact * (my_pips + their_pips) / 300.0,
        (CHECKERS_PER_SIDE - my_on) / CHECKERS_PER_SIDE,
        (CHECKERS_PER_SIDE - their_on) / CHECKERS_PER_SIDE,
        my_heads,
        their_heads,
    )
    win_mars: tuple[float, ...] = ()
    if their_on == CHECKERS_PER_SIDE:
        theirs_needed = _mars_pips(theirs)
        z = (theirs_needed - my_pips + ON_ROLL_PIPS) / math.sqrt(theirs_needed + my_pips + 1.0)
        win_mars = (1.0, z, contact, contact * static / 20.0, theirs_needed / 100.0, their_heads)
    lose_mars: tuple[float, ...] = ()
    if my_on == CHECKERS_PER_SIDE:
        mine_needed = _mars_pips(mine)
        z = (their_pips - mine_needed - ON_ROLL_PIPS) / math.sqrt(mine_needed + their_pips + 1.0)
        lose_mars = (1.0, z, contact, contact * static / 20.0, mine_needed / 100.0, my_heads)
    return win, win_mars, lose_mars


def logistic(coefficients: tuple[float, ...], values: tuple[float, ...]) -> float:
    score = sum(map(mul, coefficients, values))
    if score < -40.0:
        return 0.0
    if score > 40.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-score))


def recalibrate(probability: float, table: tuple[tuple[float, float], ...]) -> float:
    """The piecewise-linear map through ``table``'s (raw, calibrated) knots, clamped at its ends."""
    if not table:
        return probability
    raws = [raw for raw, _ in table]
    at = bisect_right(raws, probability)
    if at == 0:
        low_raw, low_cal = 0.0, 0.0
        high_raw, high_cal = table[0]
    elif at == len(table):
        low_raw, low_cal = table[-1]
        high_raw, high_cal = 1.0, 1.0
    else:
        (low_raw, low_cal), (high_raw, high_cal) = table[at - 1], table[at]
    if high_raw <= low_raw:
        return low_cal
    return low_cal + (high_cal - low_cal) * (probability - low_raw) / (high_raw - low_raw)


def estimate(board: Board, side: Side) -> Estimate:
    """Calibrated chances for ``side``, on roll and about to roll, in ``board``; a finished game
    is scored exactly."""
    white, black = side_counts(board)
    mine, theirs = (white, black) if side == WHITE else (black, white)
    my_on, their_on = sum(mine), sum(theirs)
    if my_on == 0 or their_on == 0:  # the game is over: oin 1, mars 2 (scoring.py)
        won = my_on == 0
        mars = (their_on if won else my_on) == CHECKERS_PER_SIDE
        return Estimate(float(won), float(won and mars), float(not won and mars))
    win_features, win_mars_features, lose_mars_features = _features(mine, theirs, my_on, their_on)
    win = recalibrate(logistic(WIN, win_features), WIN_MAP)
    win_mars = logistic(WIN_MARS, win_mars_features) if win_mars_features else 0.0
    lose_mars = logistic(LOSE_MARS, lose_mars_features) if lose_mars_features else 0.0
    return Estimate(win, min(win_mars, win), min(lose_mars, 1.0 - win))


def equity(board: Board, side: Side) -> float:
    """Cubeless equity in points for ``side`` on roll (between -2 and 2)."""
    return estimate(board, side).equity
