"""The learned evaluation's recalibration map (nardy/net_map.py, fitted by bench/fit_net_map.py):
fitted for the committed weights, monotone, exact at the ends, and keeping the chances
consistent; the raw outputs the levels play on are untouched."""

from __future__ import annotations

import numpy as np

from nardy import TRADITIONAL, net, net_map
from nardy.board import START_BOARD


def test_the_map_belongs_to_the_committed_weights_and_is_monotone():
    assert net_map.FOR_WEIGHTS == net.WEIGHTS_SHA256
    raws = [raw for raw, _ in net_map.WIN_MAP]
    cals = [cal for _, cal in net_map.WIN_MAP]
    assert len(raws) >= 5
    assert raws == sorted(raws) and cals == sorted(cals)
    assert all(0.0 <= value <= 1.0 for value in raws + cals)


def test_calibrated_chances_stay_consistent_and_exact_at_the_ends():
    grid = np.linspace(0.0, 1.0, 101)
    probabilities = np.stack([grid, grid * 0.5, (1.0 - grid) * 0.5], axis=1)
    mapped = net.calibrated(probabilities)
    assert np.all(np.diff(mapped[:, 0]) >= -1e-12)
    assert mapped[0, 0] == 0.0 and mapped[-1, 0] == 1.0
    assert np.all(mapped[:, 1] <= mapped[:, 0] + 1e-12)
    assert np.all(mapped[:, 2] <= 1.0 - mapped[:, 0] + 1e-12)
    assert np.array_equal(probabilities[:, 0], grid)  # the input is not changed


def test_the_levels_still_play_on_the_raw_outputs():
    raw = net.evaluate([START_BOARD], "w", TRADITIONAL)
    again = net.evaluate([START_BOARD], "w", TRADITIONAL)
    assert np.array_equal(raw, again)
    assert not np.shares_memory(net.calibrated(raw), raw)
