"""Dice: rolled by the server with `secrets` when the mover rolls (RULES.md "Platform rules").

The only seam for fixed dice is for tests: with `NARDY_TEST_DICE=1` *and* DEBUG on, dice are taken
from a Redis list that a test filled (`push_test_dice`), falling back to `secrets` when it is
empty. Settings refuse NARDY_TEST_DICE when DEBUG is off, so production can never use it
(tests/config/test_settings.py proves it).
"""

from __future__ import annotations

import secrets

from django.conf import settings


def _test_dice_key() -> str:
    return f"{settings.REDIS_PREFIX}:test-dice"


def _test_seam_on() -> bool:
    return bool(settings.DEBUG and settings.NARDY_TEST_DICE)


def _redis():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL)


def roll_die() -> int:
    if _test_seam_on():
        value = _redis().lpop(_test_dice_key())
        if value is not None:
            return int(value)
    return secrets.randbelow(6) + 1


def roll_dice() -> tuple[int, int]:
    return roll_die(), roll_die()


def push_test_dice(*values: int) -> None:
    """Tests only: queue the next dice values (single dice, in order)."""
    if not _test_seam_on():
        raise RuntimeError("the test dice seam is off (it needs DEBUG and NARDY_TEST_DICE)")
    if any(type(value) is not int or not 1 <= value <= 6 for value in values):
        raise ValueError("dice are 1..6")
    client = _redis()
    client.delete(_test_dice_key())
    if values:
        client.rpush(_test_dice_key(), *values)
