"""The learned evaluation's recalibration map of P(win) (nardy/net.py ``calibrated``),
written by `nice -n 19 .venv/bin/python -m bench.fit_net_map --games 3000 --every 3 --seed 0`:
self-play games with seeds 0..2999, one position in 3 kept (95117),
Club on both sides with 15% random turns (bench/selfplay.py), for the weights
of SHA-256 dbc45c70f3f14c70... (nardy/net_params.py). Do not edit by hand.
"""

FOR_WEIGHTS = "dbc45c70f3f14c703582ca8ec89f4f1347244ab2534005114adf48334e41ca89"
WIN_MAP: tuple[tuple[float, float], ...] = (
    (0.003206, 0.003995),
    (0.029727, 0.047098),
    (0.087974, 0.134146),
    (0.167580, 0.223928),
    (0.249542, 0.301093),
    (0.320696, 0.361648),
    (0.377321, 0.409588),
    (0.421095, 0.429983),
    (0.461977, 0.466148),
    (0.503911, 0.499159),
    (0.544426, 0.502523),
    (0.581581, 0.542473),
    (0.617029, 0.568755),
    (0.664821, 0.616484),
    (0.722593, 0.645290),
    (0.790488, 0.710261),
    (0.863420, 0.782170),
    (0.931625, 0.867115),
    (0.977189, 0.953743),
    (0.997569, 0.996634),
)
