"""The export verifier and its command line (games/fairness/verify.py, __main__.py) on a match
the engine played with fair dice (tests/games/fairness/fixtures/engine_match.json, which the
browser's verifier checks too: tests/js/fairness.test.mjs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.fairness import ExportError, verify_export

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = Path(__file__).parent / "fixtures" / "engine_match.json"


def load() -> dict:
    return json.loads(FIXTURE.read_text())


def cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.fairness", "verify", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_every_roll_verifies_ties_and_the_played_opening_roll_included() -> None:
    report = verify_export(load())
    assert report.ok and report.problems == []
    assert len(report.checks) == 189
    kinds = [check.kind for check in report.checks]
    assert kinds[:2] == ["tie", "opening"]
    first_turn = report.checks[2]  # "play_roll": the starter's first turn plays the opening roll
    assert (first_turn.kind, first_turn.roll) == ("turn", 2)


@pytest.mark.integration  # starts a process
def test_the_command_line_verifies_and_refuses(tmp_path: Path) -> None:
    result = cli(FIXTURE)
    assert result.returncode == 0 and "verified: all 189 rolls match" in result.stdout
    data = load()
    data["games"][1]["turns"][10]["dice"][1] ^= 1
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    result = cli(tampered)
    assert result.returncode == 1 and result.stdout.count("MISMATCH") == 1
    tampered.write_text('{"games": []}')
    assert cli(tampered).returncode == 2
    assert cli(tmp_path / "missing.json").returncode == 2


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d["games"][0]["turns"].pop(), "missing from the record [91]"),
        (
            lambda d: d["games"][0]["turns"][3].update(roll=d["games"][0]["turns"][4]["roll"]),
            "twice",
        ),
        (lambda d: d["games"][0]["turns"][3].update(roll=None), "no roll number"),
        (lambda d: d["match"]["fairness"].update(server_seed_hash="0" * 64), "commitment"),
        (lambda d: d["match"]["fairness"].update(server_seed=None), "not revealed"),
        (lambda d: d["match"]["fairness"].update(client_seeds=["a:b", "c"]), "malformed"),
    ],
)
def test_records_with_a_roll_missing_reused_or_unnumbered_fail(change, problem) -> None:
    data = load()
    change(data)
    report = verify_export(data)
    assert not report.ok
    assert any(problem in text for text in report.problems), report.problems


def test_a_file_that_is_no_export_is_an_error() -> None:
    with pytest.raises(ExportError):
        verify_export({"games": []})
    with pytest.raises(ExportError):
        verify_export({"match": {"fairness": {}}, "games": []})
