"""Fast generation of every board a complete legal turn can end in (docs/rules.md, A turn).

This is the hot path (the server validates, bots search, the CLI answers conformance checks), so
it trades some plainness for speed. ``sequences.py`` holds the plain, literal enumerator with the
step sequences; the property tests check that both always agree.

Why it is fast:
* Boards stay in the exchange format (tuples of 24 signed ints), so results need no conversion.
* Per turn we precompute, for each die, the only moves that can ever be legal: from points the
  mover holds or can reach, onto points free of opposing checkers (the opponent never moves
  during our turn, so "free of opposing checkers" is fixed for the whole turn).
* Steps are generated with non-increasing source points. Any multiset of steps that can be played
  in some order can be played highest source first: a checker arriving on a point comes from a
  higher point; bearing off needs every checker home and nothing above, and playing the high
  sources first is the best order for both. So each end board is produced about once instead of
  once per order (4! for doubles). This is not true when a six-block may appear mid-turn under
  ``every_step``; then all orders are explored (with equal states merged per depth).
* Six-block checks are skipped entirely when the mover cannot possibly complete an illegal block
  this turn (its points plus every reachable point do not contain six in a row in the zone).
"""

from __future__ import annotations

from .blocks import block_zone_indices
from .board import HEAD_POINT, HOME_TOP_POINT, OWN_TO_INDEX, POINTS, Board, Side, sign_of
from .head import search_under_head_rule
from .ruleset import RuleSet

# Markers for bear-off moves in the per-die move tables (a real destination index is >= 0).
_BEAR_OFF_EXACT = -1  # die d from point d
_BEAR_OFF_OVER = -2  # die d from a point below d: only from the highest occupied point

# (source point, source index, destination index or bear-off marker), sources descending.
_Move = tuple[int, int, int]


def _illegal_block(board: Board, zone: tuple[int, ...], sign: int) -> bool:
    run = 0
    for index in zone:
        if board[index] * sign > 0:
            run += 1
            if run == 6:
                return True
        else:
            run = 0
    return False


def _highest(board: Board, candidates: list[tuple[int, int]]) -> int:
    """Highest own point holding a mover checker (candidates cover every reachable point)."""
    for point, index in candidates:
        if board[index]:
            return point
    return 0


class _Turn:
    """What one (board, side, dice) allows; built once per call."""

    __slots__ = (
        "board",
        "sign",
        "candidates",
        "tables",
        "step_zone",
        "end_zone",
        "descending",
        "choose_single",
    )

    def __init__(self, board: Board, side: Side, dice: tuple[int, int], rules: RuleSet) -> None:
        sign = sign_of(side)
        table = OWN_TO_INDEX[side]
        self.board = board
        self.sign = sign
        first_die, second_die = dice
        is_double = first_die == second_die
        free = [False] * (POINTS + 1)  # own point holds no opposing checker
        sources: list[int] = []
        outside_home = 0
        for point in range(POINTS, 0, -1):
            value = board[table[point]] * sign
            if value >= 0:
                free[point] = True
                if value > 0:
                    sources.append(point)
                    if point > HOME_TOP_POINT:
                        outside_home += value
        # Points a mover checker may stand on at some moment of the turn.
        reachable = set(sources)
        offsets = (
            (first_die, 2 * first_die, 3 * first_die) if is_double else (first_die, second_die)
        )
        for point in sources:
            for offset in offsets:
                target = point - offset
                if target >= 1 and free[target]:
                    reachable.add(target)
        candidate_points = sorted(reachable, reverse=True)
        self.candidates = [(point, table[point]) for point in candidate_points]
        # Bearing off needs every checker home (docs/rules.md, A turn, item 6); with more checkers
        # outside home than dice, no step of this turn can bear off.
        dice_count = 4 if is_double else 2
        bear_off_possible = outside_home < dice_count
        tables: dict[int, list[_Move]] = {}
        for die in {first_die, second_die}:
            moves: list[_Move] = []
            for point in candidate_points:
                target = point - die
                if target >= 1:
                    if free[target]:
                        moves.append((point, table[point], table[target]))
                elif bear_off_possible and point <= HOME_TOP_POINT:
                    marker = _BEAR_OFF_EXACT if target == 0 else _BEAR_OFF_OVER
                    moves.append((point, table[point], marker))
            tables[die] = moves
        self.tables = tables
        zone = block_zone_indices(board, side, rules.block_release)
        if zone:
            # Every point a checker may stand on at the END of the turn too: the candidates
            # (sources of steps) plus the final landing points of a checker using all dice.
            reachable_indices = {index for _, index in self.candidates}
            total = 4 * first_die if is_double else first_die + second_die
            for point in sources:
                if point - total >= 1 and free[point - total]:
                    reachable_indices.add(table[point - total])
            run = 0
            possible = False
            for index in zone:
                if index in reachable_indices:
                    run += 1
                    if run == 6:
                        possible = True
                        break
                else:
                    run = 0
            if not possible:
                zone = ()
        every_step = rules.six_block == "every_step"
        self.step_zone = zone if (zone and every_step) else ()
        self.end_zone = zone if (zone and not every_step) else ()
        # Order matters only when a block may appear in the middle of the turn (every_step).
        self.descending = not self.step_zone
        self.choose_single = rules.single_die == "choice"


def _search_pair(turn: _Turn, high: int, low: int, head_limit: int) -> tuple[set[Board], int]:
    """Non-double roll: returns (end boards, dice played)."""
    start = turn.board
    sign = turn.sign
    candidates = turn.candidates
    step_zone = turn.step_zone
    descending = turn.descending
    ends: set[Board] = set()
    singles: dict[int, list[Board]] = {high: [], low: []}
    for first, second in ((high, low), (low, high)):
        second_moves = turn.tables[second]
        singles_first = singles[first]
        for point, source, target in turn.tables[first]:
            if not start[source]:
                continue
            if target < 0:
                highest = _highest(start, candidates)
                if highest > HOME_TOP_POINT or (target == _BEAR_OFF_OVER and point != highest):
                    continue
                after = list(start)
                after[source] -= sign
            else:
                after = list(start)
                after[source] -= sign
                after[target] += sign
            middle = tuple(after)
            if step_zone and _illegal_block(middle, step_zone, sign):
                continue
            singles_first.append(middle)
            heads = 1 if point == HEAD_POINT else 0
            highest_middle = -1
            for point2, source2, target2 in second_moves:
                if descending and point2 > point:
                    continue
                if not middle[source2]:
                    continue
                if point2 == HEAD_POINT and heads >= head_limit:
                    continue
                after = list(middle)
                after[source2] -= sign
                if target2 < 0:
                    if highest_middle < 0:
                        highest_middle = _highest(middle, candidates)
                    if highest_middle > HOME_TOP_POINT or (
                        target2 == _BEAR_OFF_OVER and point2 != highest_middle
                    ):
                        continue
                else:
                    after[target2] += sign
                end = tuple(after)
                if step_zone and _illegal_block(end, step_zone, sign):
                    continue
                ends.add(end)
    end_zone = turn.end_zone
    if ends:
        if not end_zone:
            return ends, 2
        legal = {end for end in ends if not _illegal_block(end, end_zone, sign)}
        if legal:
            return legal, 2
    # Only one die can be played: the larger when it can be (docs/rules.md, A turn, item 3), or
    # either die under ``single_die = "choice"`` (the Ukrainian rules page, docs/rules.md).
    chosen: set[Board] = set()
    for die in (high, low):
        legal = {b for b in singles[die] if not end_zone or not _illegal_block(b, end_zone, sign)}
        chosen |= legal
        if chosen and not turn.choose_single:
            break
    if chosen:
        return chosen, 1
    return {start}, 0


def _search_double(turn: _Turn, die: int, head_limit: int) -> tuple[set[Board], int]:
    """Double roll: up to four steps of ``die``. Returns (end boards, dice played)."""
    start = turn.board
    sign = turn.sign
    candidates = turn.candidates
    step_zone = turn.step_zone
    descending = turn.descending
    moves = turn.tables[die]
    # frontier entries: (board, last source point, checkers taken from the head)
    frontier: list[tuple[Board, int, int]] = [(start, POINTS + 1, 0)]
    levels: list[list[tuple[Board, int, int]]] = [frontier]
    for _depth in range(1, 5):
        following: list[tuple[Board, int, int]] = []
        seen: set[tuple[Board, int]] = set()
        for board, last, heads in frontier:
            highest = -1
            for point, source, target in moves:
                if point > last:
                    continue
                if not board[source]:
                    continue
                if point == HEAD_POINT and heads >= head_limit:
                    continue
                after = list(board)
                after[source] -= sign
                if target < 0:
                    if highest < 0:
                        highest = _highest(board, candidates)
                    if highest > HOME_TOP_POINT or (target == _BEAR_OFF_OVER and point != highest):
                        continue
                else:
                    after[target] += sign
                end = tuple(after)
                if step_zone and _illegal_block(end, step_zone, sign):
                    continue
                new_heads = heads + 1 if point == HEAD_POINT else heads
                if descending:
                    following.append((end, point, new_heads))
                else:
                    # All orders are explored: merge equal states reached in different orders.
                    key = (end, new_heads)
                    if key not in seen:
                        seen.add(key)
                        following.append((end, POINTS + 1, new_heads))
        if not following:
            break
        levels.append(following)
        frontier = following
    end_zone = turn.end_zone
    for depth in range(len(levels) - 1, 0, -1):
        boards = {entry[0] for entry in levels[depth]}
        if end_zone:
            boards = {b for b in boards if not _illegal_block(b, end_zone, sign)}
        if boards:
            return boards, depth
    return {start}, 0


def _search(turn: _Turn, dice: tuple[int, int], head_limit: int) -> tuple[set[Board], int]:
    first_die, second_die = dice
    if first_die == second_die:
        return _search_double(turn, first_die, head_limit)
    return _search_pair(turn, max(dice), min(dice), head_limit)


def legal_end_boards(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
) -> frozenset[Board]:
    """Every distinct board a complete legal turn can end in (the unchanged board on a pass).

    ``board`` must be a valid 24-tuple (see ``board.validate_board``); ``first_turn`` is whether
    this is ``side``'s first turn of the game (docs/rules.md, A turn, item 4).
    """
    boards, _ = end_boards_and_dice_played(board, side, dice, first_turn, rules)
    return frozenset(boards)


def head_limit(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
) -> int:
    """How many checkers may leave the head in this turn (docs/rules.md, A turn, item 4): 1 or 2."""
    turn = _Turn(tuple(board), side, dice, rules)
    return search_under_head_rule(
        dice, first_turn, rules, lambda limit: _search(turn, dice, limit)
    )[2]


def end_boards_and_dice_played(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
) -> tuple[set[Board], int]:
    board = tuple(board)  # accept lists too (tuple() of a tuple is free)
    turn = _Turn(board, side, dice, rules)
    boards, played, _ = search_under_head_rule(
        dice, first_turn, rules, lambda limit: _search(turn, dice, limit)
    )
    return boards, played
