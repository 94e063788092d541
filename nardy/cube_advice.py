"""A small, pure evaluation for cube decisions (docs/rules.md, The doubling cube): take when the
position is not clearly lost, double when clearly ahead.

Long Nardy has no hitting, so the game is a race slowed by blocks; the pip count decides most
positions. We estimate the side to roll's chance of winning from the pip lead with a normal
approximation whose spread grows with the pips left (the race formulas backgammon players use),
counting half an average roll for being on roll. Kept in its own module so the bots
(nardy/bots.py) can share or replace it.
"""

from __future__ import annotations

import math

from .board import Board, Side, opponent_of, pip_count

# An average Long Nardy roll is 8 1/6 pips (doubles count four times); being on roll is worth
# about half of it.
ON_ROLL_PIPS = 4.0
# The race's spread: sigma = SPREAD * sqrt(pips left by both sides).
SPREAD = 1.9
# Double from here (clearly ahead: a double that is about to become a pass for the opponent).
DOUBLE_FROM = 0.70
# Take down to here: with no oin/mars in cube games the taker risks the doubled stake to win
# it, so a take is right from 25% (one loss of 2 against one win of 2 out of four, versus
# dropping 1); below 22% the position is clearly lost.
TAKE_FROM = 0.22


def winning_chance(board: Board, side_on_roll: Side) -> float:
    """The estimated chance that ``side_on_roll``, about to roll, wins the game."""
    own = pip_count(board, side_on_roll)
    other = pip_count(board, opponent_of(side_on_roll))
    if own == 0:
        return 1.0
    if other == 0:
        return 0.0
    lead = other - own + ON_ROLL_PIPS
    sigma = SPREAD * math.sqrt(own + other)
    return 0.5 * (1.0 + math.erf(lead / (sigma * math.sqrt(2.0))))


def should_double(
    board: Board, side_on_roll: Side, *, points_needed: int = 0, stake: int = 1
) -> bool:
    """Double when clearly ahead, unless the stake already wins the match (``points_needed`` is
    what the side still needs, 0 when unknown): then a double only gives the cube away."""
    if points_needed and stake >= points_needed:
        return False
    return winning_chance(board, side_on_roll) >= DOUBLE_FROM


def should_take(
    board: Board, doubler: Side, *, points_needed: int = 0, stake_before: int = 1
) -> bool:
    """Take unless the position is clearly lost; always take when dropping would lose the match
    anyway (``points_needed`` is what the doubler still needs, 0 when unknown)."""
    if points_needed and stake_before >= points_needed:
        return True
    return 1.0 - winning_chance(board, doubler) >= TAKE_FROM
