"""The learned evaluation's weights (nardy/net_weights.npz): their SHA-256, checked when
they load (nardy/net.py), and their provenance, also stored inside the file. Written by
`.venv/bin/python -m bench.train_net --install .data/net/games-8000.npz`. Do not edit by hand.
"""

WEIGHTS_SHA256 = "dbc45c70f3f14c703582ca8ec89f4f1347244ab2534005114adf48334e41ca89"

PROVENANCE = {
    "command": "python -m bench.train_net --seed 2 --games 200000 --every 4000 --check-games "
    "10 --rate 0.002 --resume .data/net/resume-4000.npz --out .data/net",
    "curve": [
        {"games": 8000, "seconds": 882, "td_loss": 0.00276, "vs_master": [5, 10, 0.237, 0.763]}
    ],
    "games": 8000,
    "lambda": 0.7,
    "layers": [200, 64, 3],
    "learning_rate": 0.002,
    "resumed_from": {
        "command": "python -m bench.train_net --seed 1 --games 200000 --every "
        "2000 --check-games 20 --rate 0.002 --out .data/net",
        "curve": [
            {
                "games": 2000,
                "seconds": 127,
                "td_loss": 0.0035,
                "vs_club": [10, 20, 0.299, 0.701],
                "vs_master": [7, 20, 0.181, 0.567],
            },
            {
                "games": 4000,
                "seconds": 381,
                "td_loss": 0.00291,
                "vs_club": [9, 20, 0.258, 0.658],
                "vs_master": [7, 20, 0.181, 0.567],
            },
        ],
        "games": 4000,
        "lambda": 0.7,
        "layers": [200, 64, 3],
        "learning_rate": 0.002,
        "rule_sets": "both",
        "seed": 1,
        "trained_on": "2026-12-06",
        "training_commit": "fb09302db856a86f05b6446c5ddc95027d46d5b2",
        "training_seconds": 381,
    },
    "rule_sets": "both",
    "seed": 2,
    "trained_on": "2026-12-06",
    "training_commit": "69d06a2f3214152abe7b41d51aa3eb13bab27962",
    "training_seconds": 882,
}
