"""What the one-gesture moves (nardy/combined.py) add to every state the server sends.

    .venv/bin/python -m bench.combined_moves [--seed 2026] [--games 20]

`games/protocol/state.py` `game_state` lists the mover's `legal_steps` and then its `combined_moves`
(nardy/combined.py) for every event and snapshot of a turn being played. Both read the
same cached `legal_turns`; this times each, in that order, on self-play positions with the cache
cleared before each position, so the second figure is what the combined moves cost on top.
Figures are printed, never asserted.
"""

from __future__ import annotations

import time

from bench.turn_search import self_play_states, summary
from nardy import combined_moves, legal_next_steps
from nardy.sequences import legal_turns


def main() -> int:
    named, states = self_play_states(__doc__)
    steps_ms: list[float] = []
    combined_ms: list[float] = []
    for state in states:
        legal_turns.cache_clear()
        started = time.perf_counter()
        legal_next_steps(state)
        between = time.perf_counter()
        combined_moves(state)
        ended = time.perf_counter()
        steps_ms.append((between - started) * 1000)
        combined_ms.append((ended - between) * 1000)
    print(named)
    print(summary("legal_next_steps (cold cache)", steps_ms))
    print(summary("combined_moves after it", combined_ms))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
