"""The static evaluation of a Long Nardy position, shared by the auto-move and the bots.

``evaluate(board, side)`` says how good ``board`` is for ``side`` (higher is better); it is
symmetric (``evaluate(b, "w") == -evaluate(b, "b")``), so a search can score the opponent's
replies with it too. The terms are the ones a strong player weighs (docs/rules.md, A turn, item 2:
no hitting; a single checker owns its point, so play is about racing and blocking):

* race: pips to go (docs/rules.md, "Board, numbering and notation": each checker needs its own
  point number of pips);
* the head: checkers still on the 24-point have to leave one per turn (docs/rules.md, A turn,
  item 4), so a full head late in the game is a debt of tempo;
* blocks and primes: consecutive points held in front of opposing checkers stop them (the same
  "ahead along the opponent's path" as the six-block rule, blocks.py), the longer the better;
* the home board: checkers and points held at home (1..6), needed to bear off (item 6);
* in a pure race (no checker still has to pass an opposing one) only pips and bearing-off waste
  count.

Weights were set by playing the levels against each other (bench/bot_strength.py).
"""

from __future__ import annotations

from .board import (
    CHECKERS_PER_SIDE,
    POINTS,
    WHITE,
    Board,
    Side,
    index_to_own_point,
    other_side_point,
)

HEAD = 24
HOME_TOP = 6

# What a run of consecutive held points in front of opposing checkers is worth, by length
# (a six-run is only legal with an opposing checker already past it; blocks.py).
PRIME_VALUE = (0.0, 0.0, 2.0, 6.0, 12.0, 20.0, 30.0)
PIP_WEIGHT = 1.0
BORNE_OFF_WEIGHT = 3.0
HEAD_WEIGHT = 1.6  # per checker beyond the first still on the head
HOME_CHECKER_WEIGHT = 0.8
POINT_WEIGHT = 2.5  # a point held outside the home and head
STACK_WEIGHT = 1.2  # per checker beyond three on one point
RACE_WASTE_WEIGHT = 0.6  # per checker beyond two on a home point in a race


# Board index -> Black's own point (White's own point of index i is i + 1), and a side's own
# point p -> the other side's number for it (docs/rules.md, "Board, numbering and notation").
_BLACK_POINT_OF_INDEX = tuple(index_to_own_point("b", index) for index in range(POINTS))
_OTHER_POINT = (0,) + tuple(other_side_point(point) for point in range(1, POINTS + 1))
# Each prime's value by length and opposing checkers behind it (at most 5 counted).
_PRIME = tuple(
    tuple(PRIME_VALUE[length] * (1.0 + behind * 0.1) for behind in range(6)) for length in range(7)
)
_POINTS_DOWN = tuple(range(POINTS, 0, -1))
_POINTS_UP = tuple(range(1, POINTS + 1))


def side_counts(board: Board) -> tuple[list[int], list[int]]:
    """Each side's checkers by its own point number (entry 0 unused): (White, Black), in one
    pass over the board (docs/rules.md, "Board, numbering and notation"). Public for the
    calibrated equity (equity.py), whose features are built on the same counts."""
    white = [0] * (POINTS + 1)
    black = [0] * (POINTS + 1)
    for index, value in enumerate(board):
        if value > 0:
            white[index + 1] = value
        elif value < 0:
            black[_BLACK_POINT_OF_INDEX[index]] = -value
    return white, black


def _side_terms(mine: list[int], theirs: list[int]) -> float:
    """The contact terms of one side: ``mine`` and ``theirs`` are own-numbered counts."""
    score = 0.0
    pips = 0
    on_board = 0
    for point in _POINTS_UP:
        count = mine[point]
        if count:
            pips += point * count
            on_board += count
            if point <= HOME_TOP:
                score += HOME_CHECKER_WEIGHT * count
                if count > 3:
                    score -= STACK_WEIGHT * (count - 3)
            elif point != HEAD:
                score += POINT_WEIGHT
                if count > 3:
                    score -= STACK_WEIGHT * (count - 3)
    score += -PIP_WEIGHT * pips + BORNE_OFF_WEIGHT * (CHECKERS_PER_SIDE - on_board)
    if mine[HEAD] > 1:
        score -= HEAD_WEIGHT * (mine[HEAD] - 1)
    # Primes: walk the OPPONENT's path (their 24 down to 1) and value each run of our held
    # points by the opposing checkers still behind it (above it in their numbering).
    behind = 0  # opposing checkers above the current point in their numbering
    run = 0
    other = _OTHER_POINT
    for q in _POINTS_DOWN:
        if mine[other[q]]:
            run += 1
        else:
            if run and behind:
                score += _PRIME[run if run < 6 else 6][behind if behind < 5 else 5]
            run = 0
        behind += theirs[q]
    return score


def in_race(white: list[int], black: list[int]) -> bool:
    """No checker has to pass an opposing one any more: every checker of both sides is on its
    own points 1..12 (then White's are on Black's 13..24 and the paths never meet again)."""
    return not any(white[13:]) and not any(black[13:])


def _race_terms(mine: list[int]) -> float:
    """In a race: pips to go, checkers borne off, less the waste of tall stacks at home."""
    pips = sum(point * mine[point] for point in _POINTS_UP)
    on_board = sum(mine)
    waste = sum(max(mine[point] - 2, 0) for point in range(1, HOME_TOP + 1))
    return (
        -PIP_WEIGHT * pips
        + BORNE_OFF_WEIGHT * (CHECKERS_PER_SIDE - on_board)
        - RACE_WASTE_WEIGHT * waste
    )


def evaluate_counts(mine: list[int], theirs: list[int]) -> float:
    """``evaluate`` from own-numbered counts (``side_counts``): the race terms once no checker
    has to pass an opposing one (``in_race``), the contact terms before. Public for the
    calibrated equity (equity.py), which uses this score as one of its features."""
    if in_race(mine, theirs):
        return _race_terms(mine) - _race_terms(theirs)
    return _side_terms(mine, theirs) - _side_terms(theirs, mine)


def evaluate(board: Board, side: Side) -> float:
    """How good ``board`` is for ``side`` (higher is better, symmetric between the sides)."""
    white, black = side_counts(board)
    return evaluate_counts(white, black) if side == WHITE else evaluate_counts(black, white)
