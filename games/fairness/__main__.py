"""`python -m games.fairness verify <export.json>`: recompute every roll of a downloaded match.

Prints one line per roll (game, roll number, what it was, the dice shown and the dice the seeds
give, "ok" or "MISMATCH") and the verdict. Exit status: 0 every roll matches, 1 a roll or a check
fails (or the match is not verifiable), 2 the file cannot be read as a match export.
"""

from __future__ import annotations

import argparse
import json
import sys

from games.fairness.verify import ExportError, verify_export


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.fairness")
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="check every die of a match export")
    verify.add_argument("export", help="the match's JSON export (export.json)")
    verify.add_argument("--quiet", action="store_true", help="print the verdict only")
    args = parser.parse_args(argv)
    try:
        with open(args.export, encoding="utf-8") as handle:
            export = json.load(handle)
        report = verify_export(export)
    except (OSError, ValueError, ExportError) as error:
        print(f"cannot verify {args.export}: {error}", file=sys.stderr)
        return 2
    if not args.quiet:
        for check in report.checks:
            where = f"turn {check.turn}" if check.turn is not None else check.kind
            shown = "-".join(map(str, check.shown))
            expected = "-".join(map(str, check.expected))
            verdict = "ok" if check.ok else "MISMATCH"
            roll = f"game {check.game} roll {check.roll:>3}"
            print(f"{roll} {where:<12} {shown:>5} {expected:>5} {verdict}")
    for problem in report.problems:
        print(f"problem: {problem}")
    mismatches = sum(not check.ok for check in report.checks)
    if report.ok:
        print(f"verified: all {len(report.checks)} rolls match the revealed seeds")
        if export["match"]["fairness"].get("client_seeds_drawn_by_server"):
            print("note: the server drew both client seeds with its own (a tournament match), so "
                  "no player's seed came after the commitment")  # fmt: skip
        return 0
    print(
        f"NOT verified: {mismatches} of {len(report.checks)} rolls differ, "
        f"{len(report.problems)} other problem(s)"
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
