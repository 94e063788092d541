"""An exercise of a fixed position, stored as the analysis hook stores one, without playing and
analysing a whole match (learning/services/from_analysis.py does the same from a real one)."""

from __future__ import annotations

from learning.models import Exercise
from learning.positions import work_out
from nardy.ruleset import rule_set
from nardy.sequences import legal_turns
from tests.analysis.conftest import finished_empty_match
from tests.factories import make_user

# A position of Black's (a double 2-2, eighteen end boards) whose best turn beats the second
# best by more than CLEAR_MARGIN, and `BLUNDER_BOARD`, one of its candidates, loses more than a
# blunder's threshold (learning/positions.py work_out finds both; the factory checks it).
POSITION = (0, 1, 0, -1, 0, 0, 0, 0, 0, 0, -1, -11, 0, 1, 0, 0, 3, 0, 0, 0, 0, 0, -2, 10)
BLUNDER_BOARD = (0, 1, -1, -1, 0, 0, 0, 0, 0, 0, 0, -11, 0, 1, 0, 0, 3, 0, 0, 0, 0, 0, -2, 10)


def exercise_of_position(player, *, public: bool = True, opponent=None, turn_number: int = 12):
    """An exercise of POSITION in a finished match of `player` (Black's seat)."""
    worked = work_out(POSITION, "b", (2, 2), False, BLUNDER_BOARD, rule_set("traditional"))
    assert worked is not None and worked.one_answer()
    match = finished_empty_match(opponent or make_user(f"rival_{turn_number}"), player)
    played = next(value for board, value in worked.candidates if board == BLUNDER_BOARD)
    return Exercise.objects.create(
        match=match, game_number=1, turn_number=turn_number, player=player,
        rule_set_name=match.rule_set_name, phase="middle", board=list(POSITION), side="b",
        dice=[2, 2], first_turn=False, played_board=list(BLUNDER_BOARD),
        played_equity=played, loss=round(worked.best - played, 4), mark="blunder",
        candidates=[[list(board), value] for board, value in worked.candidates],
        estimates=worked.estimates, best_steps=[list(step) for step in worked.best_steps],
        public=public,
    )  # fmt: skip


def steps_to(exercise: Exercise, target) -> list[list[int]]:  # noqa: ANN001
    """A legal step sequence of the exercise's turn ending in `target`."""
    rules = exercise.match.rules
    turns = legal_turns(tuple(exercise.board), exercise.side, tuple(exercise.dice),
                        exercise.first_turn, rules)  # fmt: skip
    return [[step.source, step.destination, step.die] for step in turns[tuple(target)][0]]
