"""The computer's levels with their measured strength, as the Play page and the Rules show them
(nardy/strength.py reads the benchmark's file)."""

from __future__ import annotations

from accounts.models import BotLevel
from nardy.strength import measured_strength

LABELS = dict(BotLevel.choices)


def bot_strength_rows() -> list[dict[str, object]]:
    """One row per measured level, strongest last, in the engine's order."""
    figures = measured_strength()
    rows = []
    for level in BotLevel.values:
        measured = figures.get(level)
        if not measured:
            continue
        games = int(measured["games"])
        rows.append(
            {
                "level": LABELS[level],
                "against": LABELS.get(str(measured["against"]), measured["against"]),
                "games": games,
                "percent": round(100 * int(measured["wins"]) / games, 1),
                "low": round(100 * float(measured["low"]), 1),
                "high": round(100 * float(measured["high"]), 1),
                "measured_on": measured.get("measured_on", ""),
            }
        )
    return rows
