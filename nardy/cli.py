"""Stable command line (keep exactly so; tools and conformance checks use it).

``python -m nardy legal-turns`` reads JSON lines on stdin, each
``{"board": [24 ints], "turn": "w"|"b", "first_turn": bool, "dice": [d1, d2],
"six_block": "end_of_turn"|"every_step", "head_exception": "classic"|"generalised" (optional),
"single_die": "larger"|"choice" (optional), "block_release": "ahead"|"home" (optional)}``
and writes one line per input line, in order: ``{"results": [board, ...]}`` (every distinct end
board of a complete legal turn, sorted) or ``{"error": "..."}`` for a malformed line.

``python -m nardy bench [seed] [games] [option=value ...]`` prints the speed of the full
legal-turn set (the turn options of nardy/ruleset.py, e.g. ``single_die=choice``, apply to
every block of positions).
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from .board import validate_board, validate_dice, validate_side
from .fastgen import legal_end_boards
from .ruleset import RuleSet

REQUIRED_KEYS = ("board", "turn", "first_turn", "dice", "six_block")
# The turn options besides six_block (nardy/ruleset.py); each defaults to the RuleSet's.
OPTIONAL_KEYS = ("head_exception", "single_die", "block_release")
USAGE = "usage: python -m nardy legal-turns | bench [seed] [games-per-mode] [option=value ...]"


def answer_line(line: str) -> dict[str, Any]:
    """The answer object for one input line (never raises on bad input)."""
    try:
        request = json.loads(line)
    except ValueError as error:
        return {"error": f"invalid JSON: {error}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object"}
    missing = [key for key in REQUIRED_KEYS if key not in request]
    if missing:
        return {"error": f"missing key(s): {', '.join(missing)}"}
    unknown = sorted(set(request) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS))
    if unknown:
        return {"error": f"unknown option(s): {', '.join(unknown)}"}
    try:
        board = validate_board(request["board"])
        side = validate_side(request["turn"])
        dice = validate_dice(request["dice"])
        first_turn = request["first_turn"]
        if type(first_turn) is not bool:
            raise ValueError(f"first_turn must be true or false, got {first_turn!r}")
        options = {key: request[key] for key in ("six_block", *OPTIONAL_KEYS) if key in request}
        for key, value in options.items():
            if not isinstance(value, str):
                raise ValueError(f"{key} must be a string")
        rules = RuleSet(**options)  # type: ignore[arg-type]
    except ValueError as error:
        return {"error": str(error)}
    ends = sorted(legal_end_boards(board, side, dice, first_turn, rules))
    return {"results": [list(end) for end in ends]}


def legal_turns_command(stdin: IO[str], stdout: IO[str]) -> int:
    for line in stdin:
        if not line.strip():
            continue  # blank lines carry no request; answering them would shift the pairing
        try:
            answer = answer_line(line)
        except Exception as error:  # noqa: BLE001 - one bad line must not stop the stream
            answer = {"error": f"internal error: {type(error).__name__}: {error}"}
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if not arguments:
        print(USAGE, file=sys.stderr)
        return 2
    command = arguments[0]
    if command == "legal-turns":
        return legal_turns_command(sys.stdin, sys.stdout)
    if command == "bench":
        from .bench import run_bench

        numbers = [argument for argument in arguments[1:] if "=" not in argument]
        options = dict(argument.split("=", 1) for argument in arguments[1:] if "=" in argument)
        seed = int(numbers[0]) if numbers else 2026
        games = int(numbers[1]) if len(numbers) > 1 else 20
        try:
            print(run_bench(seed, games, **options))
        except ValueError as error:
            print(f"{error}\n{USAGE}", file=sys.stderr)
            return 2
        return 0
    print(USAGE, file=sys.stderr)
    return 2
