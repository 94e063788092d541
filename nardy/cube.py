"""The doubling cube ("dave", the Ukrainian rules page "Довгі нарди з даве"), as pure rules.

Before rolling, a player may offer to raise the stake; the opponent takes (the cube is raised and
passes to them: only they may raise it next) or drops (loses the game at the stake before the
offer). At the start of a game either player may double. The stake rises geometrically
(1-2-4-8 ...) or arithmetically (1-2-3-4 ...), as agreed (``RuleSet.cube_raise``), and a game
played with the cube knows no oin and no mars: it is worth the cube's value, however it is won.

Match safeguards (where the seed is silent, what match players everywhere expect): no cube in
one-point matches (``RuleSet`` refuses it), and the Crawford rule (``RuleSet.crawford``, on by
default): no doubling in the game right after a player first comes within one point of the
match, which happens once per match.
"""

from __future__ import annotations

from .ruleset import RuleSet

# The cube stops here (64 in backgammon; far beyond what a match to 7 can use).
MAX_CUBE_VALUE = 64
CUBE_RESULT = "cube"  # a cube game borne off: worth the cube's value (no oin, no mars)
DROP_RESULT = "drop"  # a double declined: worth the stake before the offer


def raised_value(value: int, rules: RuleSet) -> int:
    """The stake after a taken double from ``value``: 1-2-4-8 or 1-2-3-4 (``cube_raise``)."""
    return value * 2 if rules.cube_raise == "geometric" else value + 1


def can_raise(value: int, rules: RuleSet) -> bool:
    return rules.doubling_cube and raised_value(value, rules) <= MAX_CUBE_VALUE


def starts_crawford_game(rules: RuleSet, points: tuple[int, int], crawford_game: int) -> bool:
    """Whether the next game is the Crawford game: a player needs one point to win the match for
    the first time (``crawford_game`` is 0 while no Crawford game has been played)."""
    if not (rules.doubling_cube and rules.crawford) or crawford_game:
        return False
    return rules.match_length - 1 in points and max(points) < rules.match_length


def may_double(
    rules: RuleSet, seat: int, *, mover_seat: int, phase: str, offer: int | None,
    owner: int | None, value: int, crawford: bool,
) -> bool:  # fmt: skip
    """Whether ``seat`` may offer a double: before rolling in its own turn, with no offer
    pending, the cube in the middle or its own, outside the Crawford game."""
    return (
        rules.doubling_cube
        and seat == mover_seat
        and phase == "roll"
        and offer is None
        and owner in (None, seat)
        and not crawford
        and can_raise(value, rules)
    )
