"""A partly played turn (docs/rules.md, A turn, item 7, and "Platform rules": steps one by one).

The board UI highlights ``legal_next_steps``; the server validates each step with ``play_step``;
``undo_step`` is pure and the caller decides whether the rule set allows it
(``RuleSet.undo_allowed``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board, Side, validate_board, validate_dice, validate_side
from .prefixes import TurnPrefixes, prefixes
from .ruleset import RuleSet
from .sequences import IllegalMove, Step, StepSequence, apply_step, legal_turns


@dataclass(frozen=True)
class TurnState:
    """The turn so far: the position it started from, the roll, and the steps already played."""

    start_board: Board
    side: Side
    dice: tuple[int, int]
    first_turn: bool
    rules: RuleSet
    steps: StepSequence = ()
    board: Board = field(default=())

    def __post_init__(self) -> None:
        if not self.board:
            board = self.start_board
            for step in self.steps:
                board = apply_step(board, self.side, step)
            object.__setattr__(self, "board", board)


def start_turn(
    board: Board | list[int], side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
) -> TurnState:
    """A new turn with nothing played yet (validates its inputs, raising ValueError)."""
    return TurnState(
        start_board=validate_board(board),
        side=validate_side(side),
        dice=validate_dice(dice),
        first_turn=bool(first_turn),
        rules=rules,
    )


def _legal_sequences(state: TurnState) -> dict[Board, tuple[StepSequence, ...]]:
    return legal_turns(state.start_board, state.side, state.dice, state.first_turn, state.rules)


def legal_next_steps(state: TurnState) -> tuple[Step, ...]:
    """Exactly the steps that begin some complete legal turn from here, sorted (highest first).

    Answered without listing the turns (``prefixes.py``); ``literal_next_steps`` is the same
    answer read from every complete legal turn, and the property tests keep them equal."""
    return _prefixes(state).next_steps(state.steps)


def is_turn_complete(state: TurnState) -> bool:
    """True when the steps played form a complete legal turn (a pass is complete at once);
    ``literal_turn_complete`` is the same answer from the listed turns."""
    return _prefixes(state).complete(state.steps)


def _prefixes(state: TurnState) -> TurnPrefixes:
    return prefixes(state.start_board, state.side, state.dice, state.first_turn, state.rules)


def literal_next_steps(state: TurnState) -> tuple[Step, ...]:
    """``legal_next_steps`` read from every complete legal turn (``sequences.legal_turns``)."""
    played = state.steps
    depth = len(played)
    found: set[Step] = set()
    for sequences in _legal_sequences(state).values():
        for steps in sequences:
            if len(steps) > depth and steps[:depth] == played:
                found.add(steps[depth])
    return tuple(sorted(found, reverse=True))


def literal_turn_complete(state: TurnState) -> bool:
    """``is_turn_complete`` read from every complete legal turn (``sequences.legal_turns``)."""
    sequences = _legal_sequences(state).get(state.board, ())
    return state.steps in sequences


def play_step(state: TurnState, step: Step) -> TurnState:
    """The state after ``step``; raises IllegalMove (with the reason) when it is not allowed."""
    if is_turn_complete(state):
        raise IllegalMove("the turn is complete: no more steps can be played")
    allowed = legal_next_steps(state)
    if step not in allowed:
        raise IllegalMove(_explain(state, step, allowed))
    return TurnState(
        start_board=state.start_board,
        side=state.side,
        dice=state.dice,
        first_turn=state.first_turn,
        rules=state.rules,
        steps=state.steps + (step,),
        board=apply_step(state.board, state.side, step),
    )


def undo_step(state: TurnState) -> TurnState:
    """The state before the last step (pure: the caller checks ``rules.undo_allowed``)."""
    if not state.steps:
        raise IllegalMove("there is no step to undo")
    return TurnState(
        start_board=state.start_board,
        side=state.side,
        dice=state.dice,
        first_turn=state.first_turn,
        rules=state.rules,
        steps=state.steps[:-1],
    )


def remaining_dice(state: TurnState) -> tuple[int, ...]:
    """Dice not yet played in this turn (a double counts four)."""
    first, second = state.dice
    left = [first] * 4 if first == second else [first, second]
    for step in state.steps:
        if step.die in left:
            left.remove(step.die)
    return tuple(left)


def _explain(state: TurnState, step: Step, allowed: tuple[Step, ...]) -> str:
    """A clear reason for refusing ``step``: the single-step rule it breaks, or the turn rule."""
    from .sequences import step_problem

    left = remaining_dice(state)
    if step.die not in left:
        return f"no die {step.die} left to play (remaining dice: {list(left)})"
    heads = sum(1 for played in state.steps if played.source == 24)
    problem = step_problem(state.board, state.side, step, heads, 2, state.rules)
    if problem is not None:
        return problem
    if step.source == 24 and heads >= 1:
        return "only one checker may leave the head this turn"
    if not allowed:
        return "no step can be played"
    return (
        "this step does not begin a complete legal turn (you must play as many dice as "
        "possible, the larger die when only one can be played, and respect the six-point "
        "block at the end of the turn)"
    )


def choose_rest_of_turn(state: TurnState) -> StepSequence:
    """The steps the server plays for a mover whose time ran out (docs/rules.md, Platform rules):
    the best complete legal turn (by ``evaluation.evaluate``) that continues the steps already
    played; empty when the turn is already complete or nothing can be played."""
    from .chooser import choose_turn, evaluate

    if not state.steps:
        return choose_turn(state.start_board, state.side, state.dice, state.first_turn, state.rules)
    played = state.steps
    depth = len(played)
    candidates: list[tuple[float, Board, StepSequence]] = []
    for end, sequences in _legal_sequences(state).items():
        continuing = sorted(steps for steps in sequences if steps[:depth] == played)
        if continuing:
            candidates.append((-evaluate(end, state.side), end, continuing[0][depth:]))
    if not candidates:
        return ()
    return min(candidates)[2]
