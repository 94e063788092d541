"""The bots' measured strength: bench/bot_strength.py --write records, per level, its win rate
against the level below on mirrored dice, with the 95 % interval, the games, the date and the
commit, in bot_strength.json beside this module (package data). Pages show it from here, so no
figure is typed by hand."""

from __future__ import annotations

import json
from importlib import resources

RESULTS_FILE = "bot_strength.json"


def measured_strength() -> dict[str, dict[str, object]]:
    """Level -> its figures (``against``, ``games``, ``wins``, ``low``, ``high``,
    ``measured_on``...); empty when nothing was measured yet."""
    try:
        text = resources.files(__package__).joinpath(RESULTS_FILE).read_text()
    except FileNotFoundError:
        return {}
    return dict(json.loads(text).get("levels", {}))
