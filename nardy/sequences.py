"""Steps and complete legal turns with their step sequences, written literally from docs/rules.md.

This enumerator tries every order of every die (no shortcuts), so it is the readable statement of
the rules; ``fastgen.py`` computes the same end boards quickly and the tests check they agree.
Results are cached because the server asks for them at every step of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .blocks import has_illegal_block
from .board import (
    BORNE_OFF,
    HEAD_POINT,
    HOME_TOP_POINT,
    OWN_TO_INDEX,
    POINTS,
    Board,
    Side,
    sign_of,
)
from .head import search_under_head_rule
from .ruleset import RuleSet


class IllegalMove(Exception):
    """A step or turn the rules do not allow; the message says why."""


@dataclass(frozen=True, order=True)
class Step:
    """One die played by one checker, in the MOVER's own numbering (24..1; 0 = borne off)."""

    source: int
    destination: int
    die: int


StepSequence = tuple[Step, ...]


def dice_list(dice: tuple[int, int]) -> tuple[int, ...]:
    """The dice to play: a double is played four times (docs/rules.md, A turn, item 1)."""
    first, second = dice
    return (first,) * 4 if first == second else (first, second)


def step_problem(
    board: Board, side: Side, step: Step, heads_used: int, head_limit: int, rules: RuleSet
) -> str | None:
    """Why ``step`` cannot be played on ``board`` by itself (None when it can).

    This checks the step alone; whether it begins a complete legal turn (maximum dice, higher
    die) is decided over whole turns by ``legal_turns``.
    """
    table = OWN_TO_INDEX[side]
    sign = sign_of(side)
    source, destination, die = step.source, step.destination, step.die
    if not 1 <= source <= POINTS:
        return f"source point {source} is not a point 1..24"
    if board[table[source]] * sign <= 0:
        return f"you have no checker on point {source}"
    if source == HEAD_POINT and heads_used >= head_limit:
        return "only one checker may leave the head this turn"  # docs/rules.md, A turn, item 4
    target = source - die
    if target >= 1:
        if destination != target:
            return f"a {die} from point {source} lands on point {target}, not {destination}"
        if board[table[target]] * sign < 0:
            return f"point {target} holds an opposing checker"  # docs/rules.md, A turn, item 2
    else:
        if destination != BORNE_OFF:
            return f"a {die} from point {source} bears the checker off (destination 0)"
        # docs/rules.md, A turn, item 6: every checker still on the board must be home.
        highest = max((p for p in range(1, POINTS + 1) if board[table[p]] * sign > 0), default=0)
        if highest > HOME_TOP_POINT:
            return "bearing off starts only when all your checkers are in your home"
        if target < 0 and source != highest:
            return f"a {die} bears off from point {source} only when no checker stands higher"
    if rules.six_block == "every_step" and has_illegal_block(
        apply_step(board, side, step), side, rules.block_release
    ):
        return "this step would build a six-point block with no opposing checker ahead of it"
    return None


def apply_step(board: Board, side: Side, step: Step) -> Board:
    """The board after ``step`` (no legality check; see ``step_problem``)."""
    table = OWN_TO_INDEX[side]
    sign = sign_of(side)
    after = list(board)
    after[table[step.source]] -= sign
    if step.destination != BORNE_OFF:
        after[table[step.destination]] += sign
    return tuple(after)


def _all_sequences(
    board: Board, side: Side, dice: tuple[int, int], head_limit: int, rules: RuleSet
) -> list[tuple[StepSequence, Board]]:
    """Every sequence of individually playable steps (each prefix included), with its board.

    What can follow depends only on the board and the dice left (the head checkers already
    moved follow from the board: nothing lands on the head), and with doubles the same state is
    reached in many orders: each state's continuations are found once (`seen`) and shared by
    every sequence reaching it."""
    table, sign = OWN_TO_INDEX[side], sign_of(side)
    seen: dict[tuple[Board, tuple[int, ...]], list[tuple[StepSequence, Board]]] = {}

    def continuations(
        current: Board, remaining: tuple[int, ...], heads: int
    ) -> list[tuple[StepSequence, Board]]:
        key = (current, remaining)
        if key in seen:
            return seen[key]
        found: list[tuple[StepSequence, Board]] = [((), current)]
        # Points holding one of our checkers (step_problem refuses every other source anyway;
        # skipping them here spares most of its calls).
        sources = [p for p in range(POINTS, 0, -1) if current[table[p]] * sign > 0]
        for die in sorted(set(remaining), reverse=True):
            rest = list(remaining)
            rest.remove(die)
            after_die = tuple(rest)
            for source in sources:
                destination = max(source - die, BORNE_OFF)
                step = Step(source, destination, die)
                if step_problem(current, side, step, heads, head_limit, rules) is not None:
                    continue
                following = continuations(
                    apply_step(current, side, step),
                    after_die,
                    heads + (1 if source == HEAD_POINT else 0),
                )
                found.extend(((step, *steps), end) for steps, end in following)
        seen[key] = found
        return found

    try:
        return continuations(board, tuple(dice_list(dice)), 0)
    finally:
        continuations = None  # it names itself: a reference cycle (nardy/__init__.py)


def _legal_sequences(
    board: Board, side: Side, dice: tuple[int, int], head_limit: int, rules: RuleSet
) -> tuple[list[tuple[StepSequence, Board]], int]:
    """The complete legal turns as (steps, end board), and how many dice they play."""
    blocked: dict[Board, bool] = {}  # many sequences share an end board (doubles most of all)

    def ends_blocked(end: Board) -> bool:
        if end not in blocked:
            blocked[end] = has_illegal_block(end, side, rules.block_release)
        return blocked[end]

    candidates = [
        (steps, end)
        for steps, end in _all_sequences(board, side, dice, head_limit, rules)
        if steps
        # docs/rules.md, A turn, item 5: under end_of_turn only the final position is checked; a
        # turn that ends in an illegal block is not a legal turn and does not count toward maximum
        # dice.
        and (rules.six_block == "every_step" or not ends_blocked(end))
    ]
    if not candidates:
        return [((), board)], 0
    most = max(len(steps) for steps, _ in candidates)
    chosen = [(steps, end) for steps, end in candidates if len(steps) == most]
    first, second = dice
    if most == 1 and first != second and rules.single_die == "larger":
        # Only one die can be played: the larger when it can be (docs/rules.md, A turn, item 3);
        # under ``single_die = "choice"`` (the Ukrainian rules page, docs/rules.md) the mover
        # chooses either.
        larger = [(steps, end) for steps, end in chosen if steps[0].die == max(dice)]
        if larger:
            chosen = larger
    return chosen, most


@lru_cache(maxsize=512)
def legal_turns(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
) -> dict[Board, tuple[StepSequence, ...]]:
    """Every distinct end board of a complete legal turn -> the step sequences reaching it.

    A pass is ``{board: ((),)}``. Treat the returned dict as read-only (it is cached).
    """
    sequences, _, _ = search_under_head_rule(
        dice,
        first_turn,
        rules,
        lambda limit: _legal_sequences(board, side, dice, limit, rules),
    )
    by_end: dict[Board, list[StepSequence]] = {}
    for steps, end in sequences:
        by_end.setdefault(end, []).append(steps)
    return {end: tuple(sorted(set(seqs))) for end, seqs in sorted(by_end.items())}


def head_limit(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
) -> int:
    """How many checkers may leave the head in this turn (1 or 2), by the literal search."""
    return search_under_head_rule(
        dice,
        first_turn,
        rules,
        lambda limit: _legal_sequences(board, side, dice, limit, rules),
    )[2]
