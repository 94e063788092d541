"""Board values, numbering and conversions (docs/rules.md, "Board, numbering and notation").

A board is the exchange format of docs/rules.md: a tuple of 24 signed ints, index ``i`` is White's
point ``i + 1``, positive = White checkers, negative = Black checkers. Each side numbers the
points along its own path (head = 24, home = 1..6, bears off past 1); the engine's steps are
written in the mover's own numbering.
"""

from __future__ import annotations

from typing import Literal

Side = Literal["w", "b"]
Board = tuple[int, ...]

WHITE: Side = "w"
BLACK: Side = "b"
SIDES: tuple[Side, Side] = (WHITE, BLACK)

POINTS = 24
CHECKERS_PER_SIDE = 15
HEAD_POINT = 24
HOME_TOP_POINT = 6
BORNE_OFF = 0  # the destination of a step that bears a checker off

# Start position (docs/rules.md, "Board, numbering and notation"): +15 at index 23 (White's 24), -15
# at index 11 (Black's 24).
START_BOARD: Board = tuple(15 if i == 23 else -15 if i == 11 else 0 for i in range(POINTS))


def sign_of(side: Side) -> int:
    """+1 for White, -1 for Black: the sign of that side's checkers in a board."""
    return 1 if side == WHITE else -1


def opponent_of(side: Side) -> Side:
    return BLACK if side == WHITE else WHITE


def other_side_point(point: int) -> int:
    """A side's point ``p`` is the other side's point ``((p + 11) mod 24) + 1`` (docs/rules.md)."""
    return ((point + 11) % POINTS) + 1


def own_point_to_index(side: Side, point: int) -> int:
    """Board index of ``side``'s own point ``point`` (1..24)."""
    if not 1 <= point <= POINTS:
        raise ValueError(f"point must be 1..24, got {point}")
    white_point = point if side == WHITE else other_side_point(point)
    return white_point - 1


def index_to_own_point(side: Side, index: int) -> int:
    """``side``'s own point number of board index ``index`` (0..23)."""
    if not 0 <= index < POINTS:
        raise ValueError(f"index must be 0..23, got {index}")
    white_point = index + 1
    return white_point if side == WHITE else other_side_point(white_point)


# Precomputed tables: OWN_TO_INDEX[side][p] for p in 1..24 (entry 0 unused, -1).
OWN_TO_INDEX: dict[Side, tuple[int, ...]] = {
    side: (-1,) + tuple(own_point_to_index(side, p) for p in range(1, POINTS + 1)) for side in SIDES
}


def checkers_on_board(board: Board, side: Side) -> int:
    sign = sign_of(side)
    return sum(count * sign for count in board if count * sign > 0)


def borne_off(board: Board, side: Side) -> int:
    """Borne-off checkers are ``15 -`` the side's checkers on the board (docs/rules.md)."""
    return CHECKERS_PER_SIDE - checkers_on_board(board, side)


def own_counts(board: Board, side: Side) -> tuple[int, ...]:
    """The side's checker counts by own point: entry ``p`` (1..24); entry 0 = borne off."""
    sign = sign_of(side)
    table = OWN_TO_INDEX[side]
    counts = [0] * (POINTS + 1)
    for point in range(1, POINTS + 1):
        value = board[table[point]] * sign
        if value > 0:
            counts[point] = value
    counts[0] = CHECKERS_PER_SIDE - sum(counts)
    return tuple(counts)


def pip_count(board: Board, side: Side) -> int:
    """Pips the side still needs to bear everything off (own point number per checker)."""
    counts = own_counts(board, side)
    return sum(point * counts[point] for point in range(1, POINTS + 1))


def validate_board(board: object) -> Board:
    """Return ``board`` as a tuple, or raise ValueError naming what is wrong with it."""
    if not isinstance(board, (list, tuple)):
        raise ValueError("board must be a list of 24 integers")
    if len(board) != POINTS:
        raise ValueError(f"board must have 24 entries, got {len(board)}")
    for value in board:
        if type(value) is not int:
            raise ValueError(f"board entries must be integers, got {value!r}")
    as_tuple: Board = tuple(board)
    white = sum(v for v in as_tuple if v > 0)
    black = -sum(v for v in as_tuple if v < 0)
    if white > CHECKERS_PER_SIDE:
        raise ValueError(f"White has {white} checkers on the board, at most 15 allowed")
    if black > CHECKERS_PER_SIDE:
        raise ValueError(f"Black has {black} checkers on the board, at most 15 allowed")
    return as_tuple


def validate_side(side: object) -> Side:
    if side == WHITE:
        return WHITE
    if side == BLACK:
        return BLACK
    raise ValueError(f'turn must be "w" or "b", got {side!r}')


def validate_dice(dice: object) -> tuple[int, int]:
    if not isinstance(dice, (list, tuple)) or len(dice) != 2:
        raise ValueError("dice must be a pair of integers 1..6")
    first, second = dice
    for die in (first, second):
        if type(die) is not int or not 1 <= die <= 6:
            raise ValueError(f"each die must be an integer 1..6, got {die!r}")
    return (first, second)


def board_from_points(white: dict[int, int], black: dict[int, int]) -> Board:
    """A board from each side's checkers by ITS OWN point numbers, e.g. ``{24: 15}``.

    Convenient for tests and tools; raises ValueError when the two sides share a point.
    """
    board = [0] * POINTS
    for side, placement in ((WHITE, white), (BLACK, black)):
        sign = sign_of(side)
        for point, count in placement.items():
            if count < 0:
                raise ValueError("checker counts are positive")
            if count == 0:
                continue
            index = own_point_to_index(side, point)
            if board[index] * sign < 0:
                raise ValueError(f"White and Black both on board index {index}")
            board[index] += sign * count
    return validate_board(board)
