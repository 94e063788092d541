"""Post-match analysis of checker play: each turn's equity as played and at its best, the loss,
and a mark; a match's performance rating. Pure: positions, dice and budgets are passed in.

Depth: Master's 2-ply (bots.py) with the calibrated equity (equity.py) at the leaves. Every
legal end board is first scored 1-ply (the calibrated equity of the opponent on roll, negated);
the turn played and the best ``CANDIDATES`` of that ranking are then scored 2-ply: the average,
over the opponent's 21 rolls, of our calibrated equity after the opponent's reply to that roll
(the reply the static evaluation prefers, as Master assumes). The loss is the best 2-ply value
less the played turn's, so it is never negative. A budget of evaluated positions bounds a turn;
candidates it cuts short keep no 2-ply value (the played turn is scored first, so a loss is
always measured at one depth).

Marks follow GNU Backgammon's default thresholds in cubeless equity lost (gnubg.c,
``arSkillLevel``): doubtful from 0.04, mistake ("bad") from 0.08, blunder ("very bad") from 0.16.
The performance rating is 500 times the mean equity lost per unforced turn, the scale of
eXtreme Gammon's PR and of GNU Backgammon's PR figure (lower is better; a forced turn, with one
end board, is no decision and does not count).

A cube match's cube decisions are analysed beside the turns (cube_analysis.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from .board import Board, Side, opponent_of
from .bots import ROLLS, _not_moved_yet
from .equity import estimate
from .evaluation import evaluate
from .fastgen import end_boards_and_dice_played, legal_end_boards
from .ruleset import RuleSet

DOUBTFUL: Final = "doubtful"
MISTAKE: Final = "mistake"
BLUNDER: Final = "blunder"
# (mark, smallest loss in cubeless equity), worst first: GNU Backgammon's defaults.
THRESHOLDS: tuple[tuple[str, float], ...] = ((BLUNDER, 0.16), (MISTAKE, 0.08), (DOUBTFUL, 0.04))
PR_SCALE = 500.0
CANDIDATES = 8  # 1-ply best end boards looked at 2-ply besides the played one (as Master)
TURN_BUDGET = 12_000  # positions one turn may evaluate at most
# Positions a whole match may evaluate: a 7-point match in well under two minutes of one core
# (bench/analysis_speed.py measures it).
MATCH_BUDGET = 4_000_000


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One turn, in cubeless equity for its mover: ``played`` and ``best`` at the analysis depth
    (``depth`` 2, or 1 when the budget left no room), ``best_board`` the best end board; a
    ``forced`` turn had one end board (or none: a pass)."""

    played: float
    best: float
    best_board: Board
    forced: bool
    depth: int
    positions: int
    dice_played: int

    @property
    def loss(self) -> float:
        return max(self.best - self.played, 0.0)

    @property
    def mark(self) -> str | None:
        return mark_of(self.loss)


def mark_of(loss: float) -> str | None:
    for mark, smallest in THRESHOLDS:
        if loss >= smallest - 1e-9:
            return mark
    return None


def performance_rating(losses: list[float]) -> float | None:
    """500 x the mean equity lost per unforced turn; None without any decision."""
    if not losses:
        return None
    return PR_SCALE * sum(losses) / len(losses)


def one_ply(end: Board, side: Side) -> float:
    """``side``'s equity after its turn ended in ``end`` (the opponent on roll)."""
    return -estimate(end, opponent_of(side)).equity


def two_ply(end: Board, side: Side, rules: RuleSet, budget: int) -> tuple[float | None, int]:
    """The mean over the opponent's 21 rolls of ``side``'s equity (on roll) after the reply the
    static evaluation prefers; None when ``budget`` runs out first. Also the positions seen."""
    if _game_over(end):  # our turn ended the game: scored exactly
        return estimate(end, side).equity, 1
    opponent = opponent_of(side)
    first_turn = _not_moved_yet(end, opponent)
    total = 0.0
    spent = 0
    for dice, weight in ROLLS:
        if spent >= budget:
            return None, spent
        replies = legal_end_boards(end, opponent, dice, first_turn, rules)
        reply = min(replies, key=lambda board: (-evaluate(board, opponent), board))
        spent += len(replies) + 1
        total += weight * estimate(reply, side).equity
    return total / 36.0, spent


def _game_over(board: Board) -> bool:
    return not any(value > 0 for value in board) or not any(value < 0 for value in board)


def analyse_turn(
    board: Board,
    side: Side,
    dice: tuple[int, int],
    first_turn: bool,
    played: Board,
    rules: RuleSet,
    *,
    budget: int = TURN_BUDGET,
) -> TurnAnalysis:
    """The analysis of ``side``'s turn from ``board`` with ``dice`` that ended in ``played``;
    ValueError when ``played`` is not a legal end board of that turn."""
    board, played = tuple(board), tuple(played)
    ends, dice_played = end_boards_and_dice_played(board, side, dice, first_turn, rules)
    if played not in ends:
        raise ValueError("the board after the turn is not a legal end of it")
    if len(ends) == 1:
        value = one_ply(played, side)
        return TurnAnalysis(value, value, played, True, 1, 1, dice_played)
    ranked = sorted(
        ((one_ply(end, side), end) for end in ends), key=lambda pair: (-pair[0], pair[1])
    )
    spent = len(ranked)
    values: dict[Board, float] = {}
    for candidate in [played] + [end for _, end in ranked[:CANDIDATES] if end != played]:
        value, used = two_ply(candidate, side, rules, budget - spent)
        spent += used
        if value is None:
            break
        values[candidate] = value
    if played not in values:  # no room for 2-ply: compare at 1-ply
        best_value, best_board = ranked[0]
        played_value = next(value for value, end in ranked if end == played)
        return TurnAnalysis(played_value, best_value, best_board, False, 1, spent, dice_played)
    best_board = min(values, key=lambda end: (-values[end], end))
    return TurnAnalysis(
        values[played], values[best_board], best_board, False, 2, spent, dice_played
    )


def turn_budget(match_budget: int, spent: int, turns_left: int) -> int:
    """A turn's share of what is left of a match's budget, at most ``TURN_BUDGET``: early turns
    cannot starve the late ones, and a match's positions stay under ``match_budget``."""
    left = max(match_budget - spent, 0)
    return min(TURN_BUDGET, left // max(turns_left, 1))


@dataclass(frozen=True, slots=True)
class LoggedTurn:
    """A turn of the move log: the board before it, the mover, the dice, whether it is the
    mover's first turn of the game (docs/rules.md, A turn, item 4) and the board it ended in."""

    board: Board
    side: Side
    dice: tuple[int, int]
    first_turn: bool
    played: Board


def game_turns(start: Board, moves: list[tuple[Side, tuple[int, int], Board]]) -> list[LoggedTurn]:
    """One game's turns from its start board and each turn's (side, dice, board after)."""
    turns = []
    board, moved = tuple(start), set()
    for side, dice, after in moves:
        turns.append(LoggedTurn(board, side, dice, side not in moved, tuple(after)))
        moved.add(side)
        board = tuple(after)
    return turns


def analyse_turns(
    turns: list[LoggedTurn], rules: RuleSet, *, budget: int = MATCH_BUDGET
) -> Iterator[TurnAnalysis | None]:
    """Each turn's analysis in order, the match's ``budget`` shared out as it goes (None for a
    turn whose board after is not a legal end of its roll)."""
    spent = 0
    for done, turn in enumerate(turns):
        share = turn_budget(budget, spent, len(turns) - done)
        try:
            result = analyse_turn(
                turn.board, turn.side, turn.dice, turn.first_turn, turn.played, rules, budget=share
            )
        except ValueError:
            yield None
            continue
        spent += result.positions
        yield result
