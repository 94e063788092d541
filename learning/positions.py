"""An exercise's position worked out once, when it is stored (docs/features.md, "Exercises"):
every legal end board of the turn, the analysis' 2-ply value of its candidates, and the phase of
the game. Pure: the rules engine's own functions (nardy/analysis.py), no Django.

The candidates are those the post-match analysis scores at 2-ply (the turn played and the best
``CANDIDATES`` of the 1-ply ranking, nardy/analysis.py); the other end boards keep their 1-ply
value, which only explains a wrong answer: an answer is right when it is a candidate whose 2-ply
value is within ``DOUBTFUL``'s loss of the best (the analysis would not mark it).
"""

from __future__ import annotations

from dataclasses import dataclass

from nardy.analysis import CANDIDATES, THRESHOLDS, TURN_BUDGET, one_ply, two_ply
from nardy.board import HOME_TOP_POINT, Board, Side, own_counts
from nardy.chooser import find_sequence
from nardy.fastgen import end_boards_and_dice_played
from nardy.ruleset import RuleSet

# The loss under which an answer counts as right: the smallest mark's threshold (doubtful).
ACCEPTED_LOSS = min(smallest for _, smallest in THRESHOLDS)
# A public exercise has one answer: the best beats the second best candidate by at least this.
CLEAR_MARGIN = ACCEPTED_LOSS
# The phases (docs/glossary.md "Phase"): a mover's first OPENING_TURNS turns of a game are its
# opening, unless it is bearing off already.
OPENING, MIDDLE, BEARING_OFF = "opening", "middle", "bearing_off"
PHASES = (OPENING, MIDDLE, BEARING_OFF)
OPENING_TURNS = 6


def phase_of(board: Board, side: Side, turns_before: int) -> str:
    """The phase of ``side``'s turn from ``board``, its ``turns_before``-th turn of the game
    (0 for its first): bearing off once every checker it has left is in its home (own points
    1-6, docs/rules.md "Bearing off"), else opening for its first OPENING_TURNS turns, else
    middle."""
    counts = own_counts(board, side)
    if not any(counts[point] for point in range(HOME_TOP_POINT + 1, len(counts))):
        return BEARING_OFF
    return OPENING if turns_before < OPENING_TURNS else MIDDLE


def board_key(board: Board) -> str:
    return ",".join(str(value) for value in board)


@dataclass(frozen=True)
class Worked:
    """The turn worked out: each candidate end board's 2-ply value (``candidates``, best first),
    every other end board's 1-ply value (``estimates``), and the best turn's steps."""

    candidates: tuple[tuple[Board, float], ...]
    estimates: dict[str, float]
    best_steps: tuple[tuple[int, int, int], ...]

    @property
    def best(self) -> float:
        return self.candidates[0][1]

    @property
    def second(self) -> float | None:
        return self.candidates[1][1] if len(self.candidates) > 1 else None

    def one_answer(self) -> bool:
        """Whether only the best candidate is within the accepted loss of the best."""
        return self.second is None or self.best - self.second >= CLEAR_MARGIN - 1e-9


def work_out(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool, played: Board,
    rules: RuleSet, *, budget: int = TURN_BUDGET,
) -> Worked | None:  # fmt: skip
    """The turn's candidates at 2-ply, as nardy.analysis.analyse_turn ranks and scores them
    (with a whole turn's budget); None when the played board is not a legal end of the turn, or
    the budget left a candidate without its 2-ply value (no sure answer then)."""
    ends, dice_played = end_boards_and_dice_played(board, side, dice, first_turn, rules)
    if played not in ends or len(ends) < 2:
        return None
    estimate = {end: one_ply(end, side) for end in ends}
    ranked = sorted(ends, key=lambda end: (-estimate[end], end))
    # The played turn and the 1-ply best CANDIDATES, each with a whole turn's budget: two_ply is
    # exact when the budget holds, so these are the analysis' values at its depth.
    values: dict[Board, float] = {}
    for candidate in dict.fromkeys([played, *ranked[:CANDIDATES]]):
        value, _ = two_ply(candidate, side, rules, budget)
        if value is None:
            return None
        values[candidate] = value
    candidates = tuple(sorted(values.items(), key=lambda pair: (-pair[1], pair[0])))
    best = candidates[0][0]
    steps = find_sequence(board, side, dice, first_turn, rules, best, dice_played)
    return Worked(
        candidates=tuple((end, round(value, 4)) for end, value in candidates),
        estimates={board_key(end): round(estimate[end], 4) for end in ranked if end not in values},
        best_steps=tuple((step.source, step.destination, step.die) for step in steps),
    )
