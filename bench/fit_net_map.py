"""Fit the learned evaluation's recalibration map (nardy/net_map.py) on self-play games.

    nice -n 19 .venv/bin/python -m bench.fit_net_map [--games 3000] [--every 3] [--seed 0]

The network's P(win) on every kept position of ``--games`` self-play games (bench/selfplay.py:
Club on both sides with random turns; seeds from ``--seed``, far from the held-out seeds that
bench/equity_calibration.py checks), then the monotone piecewise-linear map of
bench/fit_equity.py (equal-count bins of the training positions' own predictions, pooled until
non-decreasing: Zadrozny and Elkan's isotonic binning), written with its provenance to
nardy/net_map.py. Pure Python and numpy, one process; figures are printed, never asserted.
"""

from __future__ import annotations

import time
from pathlib import Path

from bench.fit_equity import fitting_arguments, knots_source, monotone_map
from bench.selfplay import NOISE, positions
from nardy import TRADITIONAL, net

PARAMS = Path(net.__file__).with_name("net_map.py")


def raw_wins(data: list) -> list[float]:
    """The network's P(win) of each position, batched by the side on roll."""
    wins = [0.0] * len(data)
    for side in ("w", "b"):
        indices = [i for i, p in enumerate(data) if p.side == side]
        values = net.evaluate([data[i].board for i in indices], side, TRADITIONAL)
        for i, row in zip(indices, values[:, 0].tolist(), strict=True):
            wins[i] = row
    return wins


def main() -> int:
    arguments = fitting_arguments(__doc__)
    started = time.process_time()
    data = positions(arguments.seed, arguments.games, arguments.every)
    knots = monotone_map([(win, p.won) for win, p in zip(raw_wins(data), data, strict=True)])
    print(f"{len(data)} positions of {arguments.games} games, {len(knots)} knots, "
          f"{time.process_time() - started:.0f} s of CPU")  # fmt: skip
    PARAMS.write_text(
        '"""The learned evaluation\'s recalibration map of P(win) (nardy/net.py ``calibrated``),\n'
        f"written by `nice -n 19 .venv/bin/python -m bench.fit_net_map --games {arguments.games} "
        f"--every {arguments.every} --seed {arguments.seed}`:\n"
        f"self-play games with seeds {arguments.seed}..{arguments.seed + arguments.games - 1}, "
        f"one position in {arguments.every} kept ({len(data)}),\n"
        f"Club on both sides with {NOISE:.0%} random turns (bench/selfplay.py), for the weights\n"
        f"of SHA-256 {net.WEIGHTS_SHA256[:16]}... (nardy/net_params.py). Do not edit by hand.\n"
        '"""\n\n'
        f'FOR_WEIGHTS = "{net.WEIGHTS_SHA256}"\n' + knots_source("WIN_MAP", knots)
    )
    print(f"wrote {PARAMS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
