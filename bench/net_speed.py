"""Speed of the learned evaluation (nardy/net.py) on one core: positions evaluated per second
(batched as a turn's end boards are, and one at a time), and the Expert level's time per turn
(mean, p50, p99, max, CPU) on positions met in random self-play (nardy/bench.py), every roll.

    nice -n 10 .venv/bin/python -m bench.net_speed [--games 10] [--seed 2026]

Goal: Expert's p99 <= 300 ms. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, as the bots' worker

from bench.bot_strength import percentile  # noqa: E402
from nardy import TRADITIONAL, legal_end_boards, net, opponent_of  # noqa: E402
from nardy.bench import self_play_positions  # noqa: E402
from nardy.bots import EXPERT, choose_end_board  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    positions = self_play_positions(arguments.seed, arguments.games, TRADITIONAL)
    model = net.load()
    batches = [(net.as_array(sorted(legal_end_boards(*p))), opponent_of(p.side)) for p in positions]
    boards = sum(len(batch) for batch, _ in batches)
    started = time.process_time()
    for batch, side in batches:
        model.evaluate(batch, side, TRADITIONAL)
    batched = time.process_time() - started
    singles = [(batch[i : i + 1], side) for batch, side in batches[:200] for i in range(len(batch))]
    started = time.process_time()
    for board, side in singles:
        model.evaluate(board, side, TRADITIONAL)
    single = time.process_time() - started
    print(
        f"{len(positions)} positions ({arguments.games} random self-play games, seed "
        f"{arguments.seed}), {boards} end boards"
    )
    print(
        f"evaluations per second (CPU): batched by turn {boards / batched:,.0f} "
        f"(mean {boards / len(batches):.0f} boards a turn); one at a time "
        f"{len(singles) / single:,.0f}"
    )
    times = []
    spent = []
    for position in positions:
        started = time.process_time()
        choose_end_board(EXPERT, *position)
        times.append(time.process_time() - started)
        ends = legal_end_boards(*position)
        if len(ends) > 1:
            spent.append(net.expert_search(ends, position.side, position.rules)[1])
    ordered = sorted(times)
    print(
        f"Expert turn (CPU): n={len(ordered)} mean={1000 * statistics.fmean(ordered):.1f} ms "
        f"p50={1000 * percentile(ordered, 0.5):.1f} ms p99={1000 * percentile(ordered, 0.99):.1f} "
        f"ms max={1000 * ordered[-1]:.1f} ms; positions evaluated: mean "
        f"{statistics.fmean(spent):.0f}, max {max(spent)} (budget {net.EXPERT_BUDGET})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
