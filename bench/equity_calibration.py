"""Calibration of the equity (nardy/equity.py, "old") and of the learned evaluation
(nardy/net.py, "net"; "net-map": its outputs through the recalibration map of nardy/net_map.py)
on the same held-out self-play games: the Brier score of P(win),
P(win with mars) and P(lose with mars), and P(win)'s reliability table (predicted against
observed win rate in 10 bins, with each bin's 95 % Wilson interval).

    nice -n 10 .venv/bin/python -m bench.equity_calibration [--games 6000] [--every 2]
        [--evaluation old|net|net-map|both|all]

Goal: every bin's observed rate within 3 points of its mean prediction. The held-out games use
seeds the fit never saw (bench/selfplay.py, HELD_OUT_BASE). Figures are printed, never asserted.

Why 6,000 games: the positions of one game share its outcome, so a bin's real sampling error is
that of the games that reach it, several times the per-position Wilson interval printed beside
it. On 2,000 games the same coefficients showed a 3.2-point gap in one bin (0.3-0.4); on 6,000
the largest gap is 1.9 (about 6 minutes of one core, cached in .data/selfplay/ afterwards).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bench.bot_strength import wilson
from bench.selfplay import HELD_OUT_BASE, positions
from nardy import TRADITIONAL, net
from nardy.equity import estimate

BINS = 10


def estimates_of(evaluation: str, data: list) -> list[tuple[float, float, float]]:
    """(P(win), P(win with mars), P(lose with mars)) of each position by ``evaluation``: "old"
    (the calibrated static evaluation, nardy/equity.py) or "net" (nardy/net.py, batched by the
    side on roll)."""
    if evaluation == "net-map":
        raw = estimates_of("net", data)
        mapped = net.calibrated(np.array(raw, dtype=np.float64)).tolist()
        return [(row[0], row[1], row[2]) for row in mapped]
    if evaluation == "old":
        return [
            (e.win, e.win_mars, e.lose_mars) for e in map(lambda p: estimate(p.board, p.side), data)
        ]
    chances: list[tuple[float, float, float]] = [(0.0, 0.0, 0.0)] * len(data)
    for side in ("w", "b"):
        indices = [i for i, p in enumerate(data) if p.side == side]
        values = net.evaluate([data[i].board for i in indices], side, TRADITIONAL)
        for i, row in zip(indices, values.tolist(), strict=True):
            chances[i] = (row[0], row[1], row[2])
    return chances


def report(evaluation: str, data: list) -> None:
    started = time.process_time()  # CPU, not wall time: the machine may be shared
    estimates = estimates_of(evaluation, data)
    per_position = (time.process_time() - started) / len(data)
    print(f"== {evaluation}: {1e6 * per_position:.0f} µs CPU per position")
    for index, name, outcome in (
        (0, "win", lambda p: p.won),
        (1, "win with mars", lambda p: p.won_mars),
        (2, "lose with mars", lambda p: p.lost_mars),
    ):
        total = sum((e[index] - outcome(p)) ** 2 for e, p in zip(estimates, data, strict=True))
        print(f"Brier {name}: {total / len(data):.4f}")
    base = sum(p.won for p in data) / len(data)
    print(f"(Brier of always predicting the base rate {base:.3f}: {base * (1 - base):.4f})")
    print(
        f"{'bin':>9} {'positions':>9} {'predicted':>9} {'observed':>9} {'95 % CI':>13} {'gap':>6}"
    )
    worst = 0.0
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        members = [
            (e[0], p.won)
            for e, p in zip(estimates, data, strict=True)
            if low <= e[0] < high or (b == BINS - 1 and e[0] == 1.0)
        ]
        if not members:
            print(f"{low:.1f}-{high:.1f} {0:>9}")
            continue
        predicted = sum(w for w, _ in members) / len(members)
        wins = sum(won for _, won in members)
        observed = wins / len(members)
        ci_low, ci_high = wilson(wins, len(members))
        gap = 100 * (observed - predicted)
        worst = max(worst, abs(gap))
        print(
            f"{low:.1f}-{high:.1f} {len(members):>9} {100 * predicted:>8.1f}% "
            f"{100 * observed:>8.1f}% {100 * ci_low:>5.1f}-{100 * ci_high:>5.1f}% {gap:>+5.1f}"
        )
    print(f"largest gap: {worst:.1f} points (goal: within 3)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument(
        "--evaluation", choices=("old", "net", "net-map", "both", "all"), default="both"
    )
    arguments = parser.parse_args()
    started = time.perf_counter()
    data = positions(HELD_OUT_BASE, arguments.games, arguments.every)
    played = time.perf_counter() - started
    print(f"{len(data)} held-out positions from {arguments.games} games ({played:.0f} s)")
    chosen = {"both": ("old", "net"), "all": ("old", "net", "net-map")}.get(
        arguments.evaluation, (arguments.evaluation,)
    )
    for evaluation in chosen:
        report(evaluation, data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
