"""The dice of a match: provably fair rolls (games/fairness) from its seeds, as the engine draws
them (docs/rules.md, Platform rules: the dice are provably fair).

`roll(match, game, roll)` is the engine's dice source for one match: the roll function of its
server seed and both client seeds. The only seam for fixed dice is for tests: with
`NARDY_TEST_DICE=1` *and* DEBUG on, each die is taken from a Redis list that a test filled
(`push_test_dice`) while it has values, and the match is then marked `dice_source="fixed"`, which
verifiers report as not verifiable. Settings refuse NARDY_TEST_DICE when DEBUG is off, so
production can never use it (tests/config/test_settings.py proves it).
"""

from __future__ import annotations

from django.conf import settings

from config.redis_client import sync_client
from games.fairness import roll_pair
from games.models import DiceSource, Match


def _test_dice_key() -> str:
    return f"{settings.REDIS_PREFIX}:test-dice"


def _test_seam_on() -> bool:
    return bool(settings.DEBUG and settings.NARDY_TEST_DICE)


def roll(match: Match, game: int, roll_number: int) -> tuple[int, int]:
    """Roll ``roll_number`` of game ``game`` of ``match`` (its client seeds are set by then)."""
    pair = roll_pair(match.server_seed, match.client_seeds, game, roll_number)
    if not _test_seam_on():
        return pair
    client = sync_client()
    # The same roll asked for again gets the same dice, as seeded dice do: a command that runs
    # again under the match lock (games/services/runners.py `play`) rolls the same.
    taken = f"{_test_dice_key()}:{match.pk}:{game}:{roll_number}"
    if kept := client.get(taken):
        match.dice_source = DiceSource.FIXED
        first, second = (int(value) for value in kept.split(b","))
        return first, second
    fixed = [client.lpop(_test_dice_key()) for _ in pair]
    if all(value is None for value in fixed):
        return pair
    match.dice_source = DiceSource.FIXED  # a fixed die can never be verified
    first, second = (pair[i] if value is None else int(value) for i, value in enumerate(fixed))
    client.set(taken, f"{first},{second}", ex=3600)
    return first, second


def push_test_dice(*values: int) -> None:
    """Tests only: queue the next dice values (single dice, in order)."""
    if not _test_seam_on():
        raise RuntimeError("the test dice seam is off (it needs DEBUG and NARDY_TEST_DICE)")
    if any(type(value) is not int or not 1 <= value <= 6 for value in values):
        raise ValueError("dice are 1..6")
    client = sync_client()
    client.delete(_test_dice_key(), *client.scan_iter(f"{_test_dice_key()}:*"))
    if values:
        client.rpush(_test_dice_key(), *values)
