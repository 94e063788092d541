"""One checker moved by several dice in one gesture (docs/rules.md, A turn, items 1, 2, 7).

A player drags a checker onto a point it reaches with both dice (or 3-4 steps of a double). The
site still plays ordinary steps, one by one; this module says which such moves exist from the
turn so far and in which order of dice to play them so that the whole turn stays legal: each
path offered is the start of a complete legal turn (``legal_turns``), so its every intermediate
point is open and no rule is broken on the way (six-point block under ``every_step``, the head
rule, maximum dice). Orders of the same dice that reach the same point end in the same position,
so one order is kept for each (source, destination, dice used); where several remain for one
(source, destination) (bearing off with one die or with two), the player chooses.
"""

from __future__ import annotations

from collections.abc import Iterable

from .prefixes import prefixes
from .sequences import BORNE_OFF, Step, StepSequence, legal_turns
from .turn import TurnState


def combined_moves(state: TurnState) -> tuple[StepSequence, ...]:
    """Every path of two or more steps of one checker that begins a complete legal turn from
    here, one per (source, destination, dice used), in a stable order.

    The paths come from ``prefixes.py`` (`checker_paths`), without listing the turns;
    ``literal_combined_moves`` reads them from every listed turn, and the property tests keep
    the two equal."""
    turn = prefixes(state.start_board, state.side, state.dice, state.first_turn, state.rules)
    return _one_per_move(path for path in turn.checker_paths(state.steps) if len(path) >= 2)


def literal_combined_moves(state: TurnState) -> tuple[StepSequence, ...]:
    """``combined_moves`` read from every complete legal turn (``sequences.legal_turns``)."""
    played = state.steps
    depth = len(played)
    paths: list[StepSequence] = []
    turns = legal_turns(state.start_board, state.side, state.dice, state.first_turn, state.rules)
    for sequences in turns.values():
        for steps in sequences:
            if len(steps) < depth + 2 or steps[:depth] != played:
                continue
            path: list[Step] = [steps[depth]]
            for following in steps[depth + 1 :]:
                last = path[-1]
                if last.destination == BORNE_OFF or following.source != last.destination:
                    break
                path.append(following)
                paths.append(tuple(path))
    return _one_per_move(paths)


def _one_per_move(paths: Iterable[StepSequence]) -> tuple[StepSequence, ...]:
    """One path per (source, destination, dice used), in a stable order: the larger die first
    when both orders are legal, the same as the board shows."""
    found: dict[tuple[int, int, tuple[int, ...]], StepSequence] = {}
    for path in paths:
        key = (path[0].source, path[-1].destination, tuple(sorted(step.die for step in path)))
        if key not in found or _order(path) > _order(found[key]):
            found[key] = path
    return tuple(found[key] for key in sorted(found, reverse=True))


def _order(path: StepSequence) -> tuple[int, ...]:
    return tuple(step.die for step in path)
