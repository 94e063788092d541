"""What the one-gesture moves (issue 17) add to every state the server sends.

    .venv/bin/python -m bench.combined_moves [--seed 2026] [--games 20]

`games/protocol.py` `game_state` lists the mover's `legal_steps` and then its `combined_moves`
(games/rules/combined.py) for every event and snapshot of a turn being played. Both read the
same cached `legal_turns`; this times each, in that order, on self-play positions with the cache
cleared before each position, so the second figure is what the combined moves cost on top.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import time

from bench.turn_search import summary
from games.rules import TurnState, combined_moves, legal_next_steps
from games.rules.bench import self_play_positions
from games.rules.ruleset import TOURNAMENT, TRADITIONAL
from games.rules.sequences import legal_turns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", type=int, default=20, help="self-play games per rule set")
    arguments = parser.parse_args()
    positions = self_play_positions(arguments.seed, arguments.games, TRADITIONAL)
    positions += self_play_positions(arguments.seed + 1, arguments.games, TOURNAMENT)
    steps_ms: list[float] = []
    combined_ms: list[float] = []
    for board, side, dice, first_turn, rules in positions:
        state = TurnState(start_board=board, side=side, dice=dice, first_turn=first_turn,
                          rules=rules)  # fmt: skip
        legal_turns.cache_clear()
        started = time.perf_counter()
        legal_next_steps(state)
        between = time.perf_counter()
        combined_moves(state)
        ended = time.perf_counter()
        steps_ms.append((between - started) * 1000)
        combined_ms.append((ended - between) * 1000)
    print(
        f"positions: {len(positions)} (seed {arguments.seed}, {arguments.games} games per rule set)"
    )
    print(summary("legal_next_steps (cold cache)", steps_ms))
    print(summary("combined_moves after it", combined_ms))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
