"""The Long Nardy match equity table, from the engine's own rates (nardy/met.py has the method).

    nice -n 19 .venv/bin/python -m bench.met [--games 4000] [--level club] [--seed 2026] [--write]

Plays ``--games`` games from the start position with ``--level`` on both sides, half under the
traditional and half under the tournament rules, the dice from ``random.Random(seed)``, and
counts how often the side that starts (White, on roll first) wins and how many wins are mars.
From these two rates ``nardy.met.build_tables`` computes every table; they are printed, and
``--write`` stores them with their provenance (command, seed, games, level, commit, date) in
nardy/met.json, which the analysis reads. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import subprocess
import sys
import time
from pathlib import Path

from bench.bot_strength import wilson
from nardy import START_BOARD, TOURNAMENT, TRADITIONAL, game_result, opponent_of
from nardy.bots import LEVELS, choose_end_board
from nardy.met import MAX_AWAY, build_tables

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "nardy" / "met.json"
MAX_TURNS = 1000  # a game always ends far sooner; this only guards against a bug looping


def starter_and_points(level: str, rules, rng: random.Random) -> tuple[bool, int]:
    """One game: whether the starter (White) won it, and its points (1, or 2 for a mars)."""
    board, side, moved = START_BOARD, "w", {"w": False, "b": False}
    for _ in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        board, _ = choose_end_board(
            level, board, side, dice, not moved[side], rules, seed=rng.getrandbits(32)
        )
        moved[side] = True
        result = game_result(board)
        if result is not None:
            return result[0] == "w", result[1]
        side = opponent_of(side)
    raise RuntimeError("a self-play game did not end")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--level", choices=LEVELS, default="club")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2")
    rng = random.Random(args.seed)
    started = time.process_time()
    starter_wins = mars = 0
    for game in range(args.games):
        won, points = starter_and_points(
            args.level, TRADITIONAL if game % 2 == 0 else TOURNAMENT, rng
        )
        starter_wins += won
        mars += points == 2
    seconds = time.process_time() - started
    low, high = wilson(starter_wins, args.games)
    # Rounded first: the stored rates rebuild the stored tables exactly (tests/nardy/test_met.py).
    starter_rate = round(starter_wins / args.games, 4)
    mars_share = round(mars / args.games, 4)
    print(f"{args.games} games of {args.level} against itself, {seconds:.0f} s of CPU")
    print(
        f"the starter wins {starter_rate:.4f} (95 % {low:.4f}..{high:.4f}); mars {mars_share:.4f}"
    )
    tables = build_tables(starter_rate, mars_share)
    for name, table in tables.items():
        print(f"\n{name}: the starter's chance, needing a (rows) against b (columns)")
        print("     " + " ".join(f"{other:>6}" for other in range(1, MAX_AWAY + 1)))
        for away in range(1, MAX_AWAY + 1):
            row = " ".join(f"{table[away][other]:6.4f}" for other in range(1, MAX_AWAY + 1))
            print(f"{away:>4} {row}")
    if args.write:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()
        data = {
            "provenance": {
                "command": "python -m bench.met "
                + " ".join(argv if argv is not None else sys.argv[1:]),
                "seed": args.seed,
                "games": args.games,
                "level": args.level,
                "rules": "traditional and tournament, alternately",
                "commit": commit,
                "measured_on": datetime.date.today().isoformat(),
                "cpu_seconds": round(seconds),
            },
            "starter_wins": starter_rate,
            "starter_wins_interval": [round(low, 4), round(high, 4)],
            "mars_share": mars_share,
            "tables": {
                name: [[round(value, 5) for value in row] for row in table]
                for name, table in tables.items()
            },
        }
        OUTPUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"\nwritten to {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
