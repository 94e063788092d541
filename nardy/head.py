"""The head rule (docs/rules.md, A turn, item 4), written once for both turn generators.

At most one checker leaves the head per turn, except on a side's first turn of the game: with
6-6, 4-4 or 3-3 two may leave (``classic``), and under ``generalised`` (the Ukrainian text) also
whenever one head checker cannot play the roll in full. ``sequences.py`` (the literal oracle) and
``fastgen.py`` (the fast generator) each pass their own search; the rule is decided here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .ruleset import RuleSet

# The first-turn doubles that let two checkers leave the head.
FIRST_TURN_HEAD_DOUBLES = (3, 4, 6)

Found = TypeVar("Found")


def search_under_head_rule(
    dice: tuple[int, int],
    first_turn: bool,
    rules: RuleSet,
    search: Callable[[int], tuple[Found, int]],
) -> tuple[Found, int, int]:
    """Run ``search(head_limit)`` (which returns what it found and how many dice it played)
    under the head rule: (what was found, dice played, the head limit that applied)."""
    first, second = dice
    if first_turn and first == second and first in FIRST_TURN_HEAD_DOUBLES:
        found, played = search(2)
        return found, played, 2
    found, played = search(1)
    dice_count = 4 if first == second else 2
    if first_turn and rules.head_exception == "generalised" and played < dice_count:
        found, played = search(2)
        return found, played, 2
    return found, played, 1
