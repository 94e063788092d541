"""What the first look at a new turn costs the server: `legal_next_steps` with a cold cache.

    .venv/bin/python -m bench.turn_search [--seed 2026] [--games 20]

A roll makes the server find every legal way to play it (nardy.sequences.legal_turns, the
literal step-by-step search that step validation and the highlighted steps need; cached per turn
per process). `python3 -m nardy bench` times only the fast end-board generator, so this
times the literal search on the same kind of self-play positions, with the cache cleared before
each position, doubles apart (they dominate). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from nardy import TurnState, legal_next_steps
from nardy.bench import self_play_positions
from nardy.ruleset import TOURNAMENT, TRADITIONAL
from nardy.sequences import legal_turns


def summary(label: str, durations_ms: list[float]) -> str:
    ordered = sorted(durations_ms)
    if not ordered:
        return f"{label}: none"
    return (
        f"{label}: n={len(ordered)} mean={statistics.fmean(ordered):.2f} ms "
        f"p50={ordered[len(ordered) // 2]:.2f} p99={ordered[int(len(ordered) * 0.99)]:.2f} "
        f"max={ordered[-1]:.2f}"
    )


def self_play_states(description: str) -> tuple[str, list[TurnState]]:
    """The command line (``--seed``, ``--games``) and the turn states of that many self-play games
    per rule set, with the line that names them."""
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", type=int, default=20, help="self-play games per rule set")
    arguments = parser.parse_args()
    positions = self_play_positions(arguments.seed, arguments.games, TRADITIONAL)
    positions += self_play_positions(arguments.seed + 1, arguments.games, TOURNAMENT)
    states = [
        TurnState(start_board=board, side=side, dice=dice, first_turn=first_turn, rules=rules)
        for board, side, dice, first_turn, rules in positions
    ]
    named = (
        f"positions: {len(states)} (seed {arguments.seed}, {arguments.games} games per rule set)"
    )
    return named, states


def main() -> int:
    named, states = self_play_states(__doc__)
    plain: list[float] = []
    doubles: list[float] = []
    for state in states:
        legal_turns.cache_clear()
        started = time.perf_counter()
        legal_next_steps(state)
        elapsed = (time.perf_counter() - started) * 1000
        (doubles if state.dice[0] == state.dice[1] else plain).append(elapsed)
    print(named)
    print(summary("non-doubles", plain))
    print(summary("doubles", doubles))
    print(summary("all", plain + doubles))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
