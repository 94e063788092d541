"""Recorded games replayed step by step (like scalachess perft fixtures / hand-history replays)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nardy import (
    IllegalMove,
    RuleSet,
    Step,
    game_result,
    is_turn_complete,
    legal_end_boards,
    legal_next_steps,
    play_step,
    start_turn,
    winner_of,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAME_FILES = sorted(FIXTURES.glob("*.json"))


def test_fixtures_exist() -> None:
    assert len(GAME_FILES) >= 4


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda path: path.stem)
def test_recorded_game_replays(path: Path) -> None:
    game = json.loads(path.read_text())
    rules = RuleSet(**game["rules"])
    board = tuple(game["start_board"])
    for number, turn in enumerate(game["turns"], start=1):
        dice = tuple(turn["dice"])
        state = start_turn(board, turn["side"], dice, turn["first_turn"], rules)
        for source, destination, die, reason in turn.get("refused", []):
            with pytest.raises(IllegalMove, match=reason):
                play_step(state, Step(source, destination, die))
        for source, destination, die in turn["steps"]:
            step = Step(source, destination, die)
            assert step in legal_next_steps(state), f"turn {number}: {step} not offered"
            state = play_step(state, step)
        assert is_turn_complete(state), f"turn {number} is not complete"
        assert list(state.board) == turn["board_after"], f"turn {number}: board differs"
        assert state.board in legal_end_boards(board, turn["side"], dice, turn["first_turn"], rules)
        board = state.board
    if game["result"] is None:
        assert winner_of(board) is None
    else:
        assert game_result(board) == (game["result"]["winner"], game["result"]["points"])
