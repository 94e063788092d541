"""Check a match export's dice against its revealed seeds (games/fairness/dice.py).

Pure standard library: the CLI (`python -m games.fairness verify <export.json>`) and the tests use
it, and static/js/fairness.js is the same procedure for the browser. What is checked:

1. The export says the dice are verifiable (not fixed by the test seam, not from before fair dice)
   and the revealed server seed hashes to the commitment published at the start.
2. Every roll shown is the roll function's output for its game and roll number: the opening's ties
   and its deciding roll exactly (die 1 is seat 0's), each turn's two dice in either order (the
   first turn under "play the opening roll" plays the opening's dice, high die first).
3. No roll was drawn and left out: the roll numbers of each game are exactly 1..n, each used once
   (only the opening's deciding roll may be used again, by the starter's first turn).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.fairness.dice import commitment, is_client_seed, is_server_seed, roll_pair


@dataclass(frozen=True)
class RollCheck:
    game: int
    roll: int
    kind: str  # "tie", "opening", "turn" or "unfinished" (the turn the match ended in)
    turn: int | None
    shown: tuple[int, ...]
    expected: tuple[int, int]
    ok: bool


@dataclass
class Report:
    checks: list[RollCheck] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and all(check.ok for check in self.checks)


class ExportError(ValueError):
    """The file is not a match export this verifier can read."""


def verify_export(export: dict[str, Any]) -> Report:
    """Recompute every roll of an export (see the module docstring)."""
    report = Report()
    try:
        fairness = export["match"]["fairness"]
        games = export["games"]
        server_seed = fairness["server_seed"]
        seeds = tuple(fairness["client_seeds"])
        verifiable = fairness["verifiable"]
        published = fairness["server_seed_hash"]
    except (KeyError, TypeError) as error:
        raise ExportError(f"not a match export with fair dice: missing {error}") from None
    if verifiable is not True:
        report.problems.append(
            f"the dice of this match are not verifiable ({fairness.get('dice_source')})"
        )
        return report
    if not is_server_seed(server_seed):
        report.problems.append("the server seed is not revealed (the match has not ended)")
        return report
    if len(seeds) != 2 or not all(is_client_seed(seed) for seed in seeds):
        report.problems.append("the client seeds are malformed")
        return report
    if commitment(server_seed) != published:
        report.problems.append("the server seed does not hash to the published commitment")
    client_seeds = (str(seeds[0]), str(seeds[1]))
    try:
        for game in games:
            _verify_game(report, server_seed, client_seeds, game)
    except (KeyError, TypeError, ValueError) as error:
        raise ExportError(f"malformed game record: {error!r}") from None
    return report


def _verify_game(
    report: Report, server_seed: str, client_seeds: tuple[str, str], game: dict[str, Any]
) -> None:
    number = game["number"]

    def check(roll: int, kind: str, turn: int | None, shown: list[int], exact: bool) -> None:
        expected = roll_pair(server_seed, client_seeds, number, roll)
        if exact:
            ok = tuple(shown) == expected
        else:
            ok = sorted(shown) == sorted(expected)
        report.checks.append(
            RollCheck(number, roll, kind, turn, tuple(shown), expected, ok)  # type: ignore[arg-type]
        )

    used: list[int] = []
    opening = game.get("opening")
    deciding = None
    if opening is not None:
        for roll, tie in enumerate(opening["ties"], start=1):
            check(roll, "tie", None, list(tie), exact=True)
            used.append(roll)
        deciding = len(opening["ties"]) + 1
        white, black = opening["white"], opening["black"]
        by_seat = [white, black] if game["white_seat"] == 0 else [black, white]
        check(deciding, "opening", None, by_seat, exact=True)
        used.append(deciding)
    turns = list(game["turns"])
    unfinished = game.get("unfinished_turn")
    for turn in [*turns, *([unfinished] if unfinished else [])]:
        roll = turn["roll"]
        if type(roll) is not int or roll < 1:
            report.problems.append(f"game {number}: a turn has no roll number")
            continue
        kind = "turn" if turn is not unfinished else "unfinished"
        check(roll, kind, turn.get("number"), list(turn["dice"]), exact=False)
        if roll == deciding and turns and turn is turns[0]:
            continue  # the starter plays the opening roll (rule option "play_roll")
        used.append(roll)
    counts = Counter(used)
    if any(times > 1 for times in counts.values()):
        report.problems.append(f"game {number}: a roll is used twice")
    drawn = game.get("rolls", max(used, default=0))
    missing = sorted(set(range(1, drawn + 1)) - set(counts))
    beyond = sorted(set(counts) - set(range(1, drawn + 1)))
    if missing or beyond:
        report.problems.append(
            f"game {number}: rolls 1..{drawn} were drawn; missing from the record {missing}, "
            f"beyond them {beyond}"
        )
