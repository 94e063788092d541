"""The six-point block rule (docs/rules.md, A turn, item 5), written plainly.

A side may not hold six consecutive points -- consecutive along the OPPONENT's path -- unless at
least one opposing checker is already ahead of them (past the block, nearer the opponent's home).

We number the block in the opponent's own numbering ``q`` (the opponent moves from q = 24 down to
q = 1), so "consecutive along the opponent's path" is simply six consecutive ``q`` values. This is
why a block that wraps past the mover's head (mover's points ..., 2, 1, 24, 23, ...) counts: in the
opponent's numbering those are q = 14, 13, 12, 11, ... -- consecutive. The opponent's path ends at
q = 1, so nothing wraps from q = 1 to q = 24.

Where docs/rules.md is silent: a checker the opponent has already borne off has passed every block,
so once the opponent has borne off any checker no block is illegal. (In a real game this never
decides anything: an opponent who has borne off has all its checkers in its home, which six mover
points cannot fence off.)

Under the Ukrainian variant ``block_release = "home"`` (the Ukrainian rules page: "a block of six
may be built only once at least one opposing checker has passed into its home") a block is allowed
once an opposing checker stands in the opponent's home (q = 1..6) or has been borne off, wherever
the block is; before that no six in a row is allowed anywhere on the opponent's path.
"""

from __future__ import annotations

from .board import (
    CHECKERS_PER_SIDE,
    HOME_TOP_POINT,
    OWN_TO_INDEX,
    POINTS,
    Board,
    Side,
    opponent_of,
    sign_of,
)
from .ruleset import BlockRelease

BLOCK_LENGTH = 6


def lowest_opponent_point(board: Board, side: Side) -> int:
    """The most advanced opposing checker, in the opponent's own numbering (0 if any borne off).

    ``side`` is the side whose blocks are checked; the answer is about its opponent.
    """
    opponent = opponent_of(side)
    opponent_sign = sign_of(opponent)
    table = OWN_TO_INDEX[opponent]
    total = 0
    lowest = POINTS + 1
    for point in range(1, POINTS + 1):
        count = board[table[point]] * opponent_sign
        if count > 0:
            total += count
            if point < lowest:
                lowest = point
    if total < CHECKERS_PER_SIDE:
        return 0
    return lowest


def _zone_top(board: Board, side: Side, release: BlockRelease) -> int:
    """Blocks are illegal on the opponent's points q < this value (1 when none is)."""
    lowest = lowest_opponent_point(board, side)
    if release == "home":
        return 1 if lowest <= HOME_TOP_POINT else POINTS + 1
    return lowest


def has_illegal_block(board: Board, side: Side, release: BlockRelease = "ahead") -> bool:
    """True when ``side`` holds six consecutive points the rule does not allow: with every
    opposing checker behind them (``ahead``), or while no opposing checker is home (``home``)."""
    lowest = _zone_top(board, side, release)
    opponent_table = OWN_TO_INDEX[opponent_of(side)]
    sign = sign_of(side)
    # A block is illegal only if it lies entirely on opponent points below ``lowest`` (no
    # opposing checker ahead of it). Scan q = 1 .. lowest - 1 for six held points in a row.
    run = 0
    for q in range(1, lowest):
        if board[opponent_table[q]] * sign > 0:
            run += 1
            if run >= BLOCK_LENGTH:
                return True
        else:
            run = 0
    return False


def block_zone_indices(
    board: Board, side: Side, release: BlockRelease = "ahead"
) -> tuple[int, ...]:
    """Board indices (in the opponent's path order) where ``side`` may not complete a block.

    Empty when no block can be illegal in this position (the opponent is never moved during
    ``side``'s turn, so the zone stays fixed for the whole turn).
    """
    lowest = _zone_top(board, side, release)
    if lowest <= BLOCK_LENGTH:
        return ()
    opponent_table = OWN_TO_INDEX[opponent_of(side)]
    return tuple(opponent_table[q] for q in range(1, lowest))
