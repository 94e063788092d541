"""Calibration of the equity (games/rules/equity.py) on held-out self-play games: the Brier
score of P(win), P(win with mars) and P(lose with mars), and P(win)'s reliability table
(predicted against observed win rate in 10 bins, with each bin's 95 % Wilson interval).

    nice -n 10 .venv/bin/python -m bench.equity_calibration [--games 6000] [--every 2]

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

from bench.bot_strength import wilson
from bench.selfplay import HELD_OUT_BASE, positions
from games.rules.equity import estimate

BINS = 10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--every", type=int, default=2)
    arguments = parser.parse_args()
    started = time.perf_counter()
    data = positions(HELD_OUT_BASE, arguments.games, arguments.every)
    played = time.perf_counter() - started
    started = time.process_time()  # CPU, not wall time: the machine may be shared
    estimates = [estimate(p.board, p.side) for p in data]
    per_position = (time.process_time() - started) / len(data)
    brier = {
        "win": sum((e.win - p.won) ** 2 for e, p in zip(estimates, data, strict=True)),
        "win with mars": sum(
            (e.win_mars - p.won_mars) ** 2 for e, p in zip(estimates, data, strict=True)
        ),
        "lose with mars": sum(
            (e.lose_mars - p.lost_mars) ** 2 for e, p in zip(estimates, data, strict=True)
        ),
    }
    base = sum(p.won for p in data) / len(data)
    print(
        f"{len(data)} held-out positions from {arguments.games} games ({played:.0f} s); "
        f"estimate {1e6 * per_position:.0f} µs CPU per position"
    )
    for name, total in brier.items():
        print(f"Brier {name}: {total / len(data):.4f}")
    print(f"(Brier of always predicting the base rate {base:.3f}: {base * (1 - base):.4f})")
    print(
        f"{'bin':>9} {'positions':>9} {'predicted':>9} {'observed':>9} {'95 % CI':>13} {'gap':>6}"
    )
    worst = 0.0
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        members = [
            (e.win, p.won)
            for e, p in zip(estimates, data, strict=True)
            if low <= e.win < high or (b == BINS - 1 and e.win == 1.0)
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
            f"{low:.1f}-{high:.1f} {len(members):>9} {100 * predicted:>8.1f}% {100 * observed:>8.1f}% "
            f"{100 * ci_low:>5.1f}-{100 * ci_high:>5.1f}% {gap:>+5.1f}"
        )
    print(f"largest gap: {worst:.1f} points (goal: within 3)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
