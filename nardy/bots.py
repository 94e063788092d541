"""The computer players' turn choice, by level. Pure and deterministic: the same
position, roll and ``seed`` give the same turn; nothing here reads a clock or rolls dice.

* ``beginner``: a random legal turn (one of the distinct end boards, drawn with the seed);
* ``club``: the legal turn whose end board scores best by the static evaluation
  (evaluation.py); this is also the server's auto-move on a timeout (chooser.choose_turn);
* ``master``: expectimax over the opponent's 21 rolls, 2-ply: each of our best candidate turns
  is scored by the average, over the opponent's rolls (doubles 1/36, others 2/36), of the
  evaluation after the opponent's best reply to that roll. The search is bounded by a budget of
  evaluated positions (``MASTER_BUDGET``), which keeps a turn well under a second on our machine
  (bench/bot_strength.py measures it) and keeps the choice deterministic, unlike a wall clock;
* ``expert``: the learned evaluation (net.py), 2-ply the same way: the network's best
  candidates at 1-ply, each scored by the average over the opponent's 21 rolls of the equity
  after its best reply, within a budget of evaluated positions (``net.EXPERT_BUDGET``) that keeps
  a turn's p99 under 300 ms on one core (bench/net_strength.py measures it). Its weights are
  checked when they load: when they cannot be used the level refuses to play
  (``net.NetUnavailable``), never falling back to another evaluation.
"""

from __future__ import annotations

import math
import random
from typing import Final

from . import net
from .board import CHECKERS_PER_SIDE, HEAD_POINT, OWN_TO_INDEX, Board, Side, opponent_of, sign_of
from .chooser import best_end_board, find_sequence
from .evaluation import evaluate
from .fastgen import end_boards_and_dice_played, legal_end_boards
from .ruleset import RuleSet
from .sequences import StepSequence

BEGINNER: Final = "beginner"
CLUB: Final = "club"
MASTER: Final = "master"
EXPERT: Final = "expert"
LEVELS: tuple[str, ...] = (BEGINNER, CLUB, MASTER, EXPERT)

# The opponent's 21 distinct rolls with their probability out of 36.
ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((high, low), 1 if high == low else 2) for high in range(1, 7) for low in range(1, high + 1)
)
# Positions Master may evaluate per turn, and how many of Club's best candidates it looks
# deeper at (the rest keep their static order after them).
MASTER_BUDGET = 40_000
MASTER_CANDIDATES = 8
# Evaluation points per factor e of the win-chance odds (a race is about 8 pips a roll).
WIN_CHANCE_SCALE = 12.0


def _ranked(ends: set[Board] | frozenset[Board], side: Side) -> list[Board]:
    """End boards best first by the static evaluation; ties by the board tuple (deterministic)."""
    return sorted(ends, key=lambda end: (-evaluate(end, side), end))


def _win_chance(score: float) -> float:
    """A score as a rough chance to win (logistic), so that averaging over the opponent's rolls
    weighs a lost position as lost however badly it is lost."""
    return 1.0 / (1.0 + math.exp(-score / WIN_CHANCE_SCALE))


def _reply_value(board: Board, side: Side, rules: RuleSet, budget: int) -> tuple[float | None, int]:
    """The expected chance (for ``side``) after the opponent's best reply, over its 21 rolls,
    and the positions evaluated; None when the budget ran out before every roll was seen."""
    opponent = opponent_of(side)
    total = 0.0
    evaluated = 0
    first_turn = _not_moved_yet(board, opponent)
    for dice, weight in ROLLS:
        if evaluated >= budget:
            return None, evaluated
        replies = legal_end_boards(board, opponent, dice, first_turn, rules)
        best = max(evaluate(reply, opponent) for reply in replies)
        evaluated += len(replies)
        total += weight * _win_chance(-best)
    return total / 36.0, evaluated


def master_search(
    ends: set[Board] | frozenset[Board], side: Side, rules: RuleSet, budget: int
) -> tuple[Board, int]:
    """Master's end board among ``ends`` and the positions it evaluated (at most ``budget``
    plus one roll's replies): Club's best candidates, each scored 2-ply; a candidate the budget
    cut short keeps no score, so the first (Club's choice) is always a fallback."""
    return net.deepen(
        _ranked(ends, side)[:MASTER_CANDIDATES],
        lambda candidate, left: _reply_value(candidate, side, rules, left),
        budget,
    )


def _not_moved_yet(board: Board, side: Side) -> bool:
    return board[OWN_TO_INDEX[side][HEAD_POINT]] * sign_of(side) == CHECKERS_PER_SIDE


def choose_end_board(
    level: str,
    board: Board,
    side: Side,
    dice: tuple[int, int],
    first_turn: bool,
    rules: RuleSet,
    *,
    seed: int = 0,
    budget: int = MASTER_BUDGET,
) -> tuple[Board, int]:
    """The end board the level plays, and the dice that takes (0 on a pass)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {LEVELS}")
    ends, played = end_boards_and_dice_played(board, side, dice, first_turn, rules)
    if played == 0 or len(ends) == 1:
        return next(iter(ends)), played
    if level == BEGINNER:
        return random.Random(seed).choice(sorted(ends)), played
    if level == CLUB:
        return best_end_board(ends, side), played
    if level == EXPERT:
        return net.expert_search(ends, side, rules)[0], played
    best, _spent = master_search(ends, side, rules, budget)
    return best, played


def choose_bot_turn(
    level: str, board: Board, side: Side, dice: tuple[int, int], first_turn: bool,
    rules: RuleSet, **search: int,
) -> StepSequence:  # fmt: skip
    """One complete legal step sequence for the level (empty on a pass); ``search`` takes
    ``choose_end_board``'s ``seed`` and ``budget``."""
    board = tuple(board)
    target, played = choose_end_board(level, board, side, dice, first_turn, rules, **search)
    if played == 0:
        return ()
    return find_sequence(board, side, dice, first_turn, rules, target, played)
