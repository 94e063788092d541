"""A simple deterministic turn chooser for server auto-moves (RULES.md "Platform rules": when a
turn runs out, the server plays a legal turn for the mover).

It scores every legal end board with a small hand-made evaluation and plays the best; ties go to
the smallest board tuple, then the first sorted step sequence, so the choice is reproducible.
"""

from __future__ import annotations

from .board import (
    CHECKERS_PER_SIDE,
    HEAD_POINT,
    HOME_TOP_POINT,
    OWN_TO_INDEX,
    POINTS,
    Board,
    Side,
    sign_of,
)
from .fastgen import legal_end_boards
from .ruleset import RuleSet
from .sequences import StepSequence, legal_turns


def evaluate(board: Board, side: Side) -> float:
    """Higher is better for ``side``. Weights are a strong player's rough priorities."""
    table = OWN_TO_INDEX[side]
    sign = sign_of(side)
    pips = 0
    on_board = 0
    points_held = 0
    stacking = 0
    longest_run = 0
    run = 0
    for point in range(POINTS, 0, -1):
        count = board[table[point]] * sign
        if count > 0:
            pips += point * count
            on_board += count
            points_held += 1
            if count > 3:
                stacking += count - 3
            run += 1
            longest_run = max(longest_run, run)
        else:
            run = 0
    head = max(board[table[HEAD_POINT]] * sign, 0)
    borne_off = CHECKERS_PER_SIDE - on_board
    home = sum(max(board[table[p]] * sign, 0) for p in range(1, HOME_TOP_POINT + 1))
    return (
        -1.0 * pips  # race: fewer pips to go
        + 12.0 * borne_off  # bearing-off progress
        + 2.0 * home  # checkers already home
        + 4.0 * points_held  # points made / held block the opponent
        + 3.0 * min(longest_run, 5)  # consecutive points (a legal block is always allowed)
        - 2.5 * stacking  # avoid tall stacks
        - 1.5 * max(head - 10, 0)  # develop the head
    )


def choose_turn(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
) -> StepSequence:
    """One complete legal step sequence (empty on a pass), chosen deterministically."""
    ends = legal_end_boards(board, side, dice, first_turn, rules)
    best = min(ends, key=lambda end: (-evaluate(end, side), end))
    return legal_turns(board, side, dice, first_turn, rules)[best][0]
