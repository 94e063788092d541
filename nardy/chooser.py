"""The deterministic turn chooser for server auto-moves (docs/rules.md, Platform rules: when a
turn runs out, the server plays a legal turn for the mover). It is also the Club bot (bots.py):
one code path.

It scores every legal end board with the static evaluation (evaluation.py) and plays the best;
ties go to the smallest board tuple, and the steps are found by a directed search (larger dice
and steps toward the target first), so the choice is reproducible and fast.
"""

from __future__ import annotations

from .blocks import has_illegal_block
from .board import BORNE_OFF, HEAD_POINT, OWN_TO_INDEX, POINTS, Board, Side, sign_of
from .evaluation import evaluate
from .fastgen import end_boards_and_dice_played, head_limit
from .ruleset import RuleSet
from .sequences import Step, StepSequence, apply_step, dice_list, step_problem


def best_end_board(ends: set[Board] | frozenset[Board], side: Side) -> Board:
    """The end board the static evaluation likes best; ties go to the smallest board tuple."""
    return min(ends, key=lambda end: (-evaluate(end, side), end))


def find_sequence(
    board: Board,
    side: Side,
    dice: tuple[int, int],
    first_turn: bool,
    rules: RuleSet,
    target: Board,
    dice_played: int,
) -> StepSequence:
    """A legal step sequence from ``board`` to the legal end board ``target``.

    Any ``dice_played`` individually legal steps reaching a legal end board form a legal turn;
    trying the larger die first also honours the higher-die rule when only one die is played.
    """
    limit = head_limit(board, side, dice, first_turn, rules)
    table = OWN_TO_INDEX[side]
    sign = sign_of(side)

    def surplus(current: Board, point: int) -> int:
        return current[table[point]] * sign - max(target[table[point]] * sign, 0)

    def search(current: Board, left: tuple[int, ...], heads: int) -> StepSequence | None:
        if len(dice_list(dice)) - len(left) == dice_played:
            return () if current == target else None
        options: list[tuple[int, Step]] = []
        for die in sorted(set(left), reverse=True):
            for source in range(POINTS, 0, -1):
                if current[table[source]] * sign <= 0:
                    continue
                step = Step(source, max(source - die, BORNE_OFF), die)
                if step_problem(current, side, step, heads, limit, rules) is None:
                    # Steps from points with too many checkers, toward points with too few,
                    # are tried first: they lead to the target almost at once.
                    score = (surplus(current, source) > 0) + (
                        step.destination == BORNE_OFF or surplus(current, step.destination) < 0
                    )
                    options.append((-score, step))
        options.sort(key=lambda option: (option[0], -option[1].die, -option[1].source))
        for _, step in options:
            rest = list(left)
            rest.remove(step.die)
            found = search(
                apply_step(current, side, step),
                tuple(rest),
                heads + (1 if step.source == HEAD_POINT else 0),
            )
            if found is not None:
                return (step,) + found
        return None

    try:
        result = search(board, dice_list(dice), 0)
    finally:
        search = None  # it names itself: a reference cycle (nardy/__init__.py)
    if result is None:  # pragma: no cover - the target comes from the legal end boards
        raise ValueError("target is not a legal end board of this turn")
    assert (
        rules.six_block == "every_step"
        or not result
        or not has_illegal_block(target, side, rules.block_release)
    )
    return result


def choose_turn(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
) -> StepSequence:
    """One complete legal step sequence (empty on a pass), chosen deterministically."""
    ends, played = end_boards_and_dice_played(board, side, dice, first_turn, rules)
    best = best_end_board(ends, side)
    if played == 0:
        return ()
    return find_sequence(board, side, dice, first_turn, rules, best, played)
