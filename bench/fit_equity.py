"""Fit the calibrated equity's coefficients (nardy/equity.py) on self-play games and write
nardy/equity_params.py.

    nice -n 10 .venv/bin/python -m bench.fit_equity [--games 3000] [--every 3] [--seed 0]

Three logistic regressions (P(win), P(win with mars), P(lose with mars)) fitted by Newton's
method (iteratively reweighted least squares) with a small L2 penalty, then a monotone
piecewise-linear recalibration of P(win) (binned observed rates on the training games, made
monotone by pool-adjacent-violators). Pure Python, one process; the held-out check is
bench/equity_calibration.py.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from bench.selfplay import NOISE, positions
from nardy import equity
from nardy.equity import features, logistic

PARAMS = Path(equity.__file__).with_name("equity_params.py")
L2 = 1e-3
MAP_BINS = 20


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(vector)
    rows = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(column + 1, n):
            factor = rows[r][column] / rows[column][column]
            for c in range(column, n + 1):
                rows[r][c] -= factor * rows[column][c]
    solution = [0.0] * n
    for r in range(n - 1, -1, -1):
        solution[r] = (rows[r][n] - sum(rows[r][c] * solution[c] for c in range(r + 1, n))) / rows[
            r
        ][r]
    return solution


def fit_logistic(samples: list[tuple[tuple[float, ...], bool]], rounds: int = 12) -> list[float]:
    size = len(samples[0][0])
    beta = [0.0] * size
    for _ in range(rounds):
        gradient = [-L2 * b for b in beta]
        hessian = [[L2 if i == j else 0.0 for j in range(size)] for i in range(size)]
        for values, outcome in samples:
            p = logistic(tuple(beta), values)
            weight = max(p * (1.0 - p), 1e-9)
            error = (1.0 if outcome else 0.0) - p
            for i in range(size):
                vi = values[i]
                if vi == 0.0:
                    continue
                gradient[i] += error * vi
                row = hessian[i]
                wi = weight * vi
                for j in range(i + 1):
                    row[j] += wi * values[j]
        for i in range(size):
            for j in range(i + 1, size):
                hessian[i][j] = hessian[j][i]
        step = _solve(hessian, gradient)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return beta


def monotone_map(pairs: list[tuple[float, bool]]) -> list[tuple[float, float]]:
    """Knots (mean raw, observed rate) of equal-count bins, pooled until non-decreasing."""
    pairs.sort()
    size = math.ceil(len(pairs) / MAP_BINS)
    blocks = []  # [sum raw, sum observed, count]
    for start in range(0, len(pairs), size):
        chunk = pairs[start : start + size]
        blocks.append([sum(r for r, _ in chunk), sum(o for _, o in chunk), len(chunk)])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            for k in range(3):
                blocks[-1][k] += last[k]
    return [(raw / count, observed / count) for raw, observed, count in blocks]


def knots_source(name: str, knots: list[tuple[float, float]]) -> str:
    """A map's knots as the Python source of a params module (also bench/fit_net_map.py)."""
    rows = "".join(f"    ({raw:.6f}, {cal:.6f}),\n" for raw, cal in knots)
    return f"{name}: tuple[tuple[float, float], ...] = (\n{rows})\n"


def fitting_arguments(doc: str) -> argparse.Namespace:
    """``--games``, ``--every`` and ``--seed`` of a fit on self-play (also bench/fit_net_map.py)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def main() -> int:
    arguments = fitting_arguments(__doc__)
    started = time.perf_counter()
    data = positions(arguments.seed, arguments.games, arguments.every)
    print(
        f"{len(data)} positions from {arguments.games} games, {time.perf_counter() - started:.0f} s"
    )
    rows = [(p, features(p.board, p.side)) for p in data]
    win = fit_logistic([(f[0], p.won) for p, f in rows])
    win_mars = fit_logistic([(f[1], p.won_mars) for p, f in rows if f[1]])
    lose_mars = fit_logistic([(f[2], p.lost_mars) for p, f in rows if f[2]])
    knots = monotone_map([(logistic(tuple(win), f[0]), p.won) for p, f in rows])
    print(f"fitted in {time.perf_counter() - started:.0f} s")

    def numbers(values: list[float]) -> str:
        return "(\n" + "".join(f"    {v:.6f},\n" for v in values) + ")"

    PARAMS.write_text(
        '"""The calibrated equity\'s fitted coefficients (nardy/equity.py), written by\n'
        f"`nice -n 10 .venv/bin/python -m bench.fit_equity --games {arguments.games} "
        f"--every {arguments.every} --seed {arguments.seed}`:\n"
        f"self-play games with seeds {arguments.seed}..{arguments.seed + arguments.games - 1}, "
        f"one position in {arguments.every} kept ({len(data)}),\n"
        f"Club on both sides with {NOISE:.0%} random turns (bench/selfplay.py). Do not edit by hand.\n"
        '"""\n\n'
        f"WIN: tuple[float, ...] = {numbers(win)}\n"
        f"WIN_MARS: tuple[float, ...] = {numbers(win_mars)}\n"
        f"LOSE_MARS: tuple[float, ...] = {numbers(lose_mars)}\n" + knots_source("WIN_MAP", knots)
    )
    print(f"wrote {PARAMS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
