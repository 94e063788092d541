"""The engine is a library: no Django on import; the stable command line answers line by line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nardy import START_BOARD, TRADITIONAL, legal_end_boards

REPO_ROOT = Path(__file__).resolve().parents[2]

# Each test starts a process: a fresh interpreter, or the command line.
pytestmark = pytest.mark.integration


def test_importing_the_engine_loads_no_django_module() -> None:
    code = (
        "import sys, nardy, nardy.match, nardy.clock, nardy.analysis\n"
        "bad = sorted(m for m in sys.modules if m.startswith('django'))\n"
        "print(','.join(bad))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == ""


def run_cli(lines: list[str]) -> list[dict]:
    completed = subprocess.run(
        ["python3", "-m", "nardy", "legal-turns"],
        cwd=REPO_ROOT,
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return [json.loads(line) for line in completed.stdout.splitlines()]


def request(**overrides) -> str:
    data = {
        "board": list(START_BOARD),
        "turn": "w",
        "first_turn": True,
        "dice": [6, 6],
        "six_block": "end_of_turn",
    }
    data.update(overrides)
    return json.dumps(data)


def test_cli_answers_each_line_in_order_and_survives_bad_lines() -> None:
    bad_board = list(START_BOARD)
    bad_board[0] = 3  # 18 White checkers
    answers = run_cli(
        [
            "{not json",
            request(),
            request(board=[0] * 23),
            request(board=bad_board),
            request(dice=[0, 3]),
            request(six_block="sometimes"),
            request(head_exception="generalised", dice=[5, 3], first_turn=False),
            request(turn="x"),
        ]
    )
    assert len(answers) == 8
    assert "error" in answers[0]
    expected = sorted(legal_end_boards(START_BOARD, "w", (6, 6), True, TRADITIONAL))
    assert answers[1] == {"results": [list(board) for board in expected]}
    two_on_18 = [0] * 24
    two_on_18[11], two_on_18[17], two_on_18[23] = -15, 2, 13
    assert answers[1] == {"results": [two_on_18]}
    assert all("error" in answer for answer in answers[2:6])
    assert len(answers[6]["results"]) == 1
    assert "error" in answers[7]


def test_cli_returns_the_unchanged_board_on_a_pass() -> None:
    board = [0] * 24
    board[23] = 15
    board[11] = -14
    board[17] = -1  # Black on White's 18
    (answer,) = run_cli([request(board=board, first_turn=False)])
    assert answer == {"results": [board]}
