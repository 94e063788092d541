"""The calls' budgets in Redis (calls/budgets.py), with the clock passed in: the signalling window
slides, frames and bytes are both counted, a refused frame counts nothing, concurrent takers never
get more than the limit between them; TURN credentials are counted per person for an hour."""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings as django_settings

from calls import budgets
from config.redis_client import sync_client


@pytest.fixture(autouse=True)
def no_counts_left():
    """Each test counts from nothing (the users here are made-up ids, the same in every run)."""
    keys = list(sync_client().scan_iter(f"{django_settings.REDIS_PREFIX}:calls:*"))
    if keys:
        sync_client().delete(*keys)


@pytest.fixture
def limits(settings):
    settings.CALL_SIGNALS_PER_WINDOW = 3
    settings.CALL_SIGNAL_BYTES_PER_WINDOW = 1000
    settings.CALL_WINDOW_SECONDS = 10
    return settings


async def take(user_id: int, now: float, size: int = 10, match_id: int = 1) -> bool:
    return await budgets.take_signal(user_id=user_id, match_id=match_id, size=size, now=now)


async def test_the_window_slides(limits):
    assert [await take(900_001, 1000.0 + n) for n in range(4)] == [True, True, True, False]
    assert await take(900_001, 1010.5) is True  # the first left the window (1000 + 10)
    assert await take(900_001, 1010.6) is False
    assert await take(900_001, 1011.5) is True


async def test_bytes_are_counted_and_a_refused_frame_counts_nothing(limits):
    assert await take(900_002, 1000.0, size=600) is True
    assert await take(900_002, 1000.1, size=600) is False  # 1,200 bytes: refused, not counted
    assert await take(900_002, 1000.2, size=400) is True  # exactly 1,000
    assert await take(900_002, 1000.3, size=1) is False


async def test_each_user_and_match_has_its_own_count(limits):
    for _ in range(3):
        assert await take(900_003, 1000.0)
    assert await take(900_003, 1000.0) is False
    assert await take(900_004, 1000.0) is True  # the opponent
    assert await take(900_003, 1000.0, match_id=2) is True


async def test_concurrent_takers_get_the_limit_between_them(limits):
    taken = await asyncio.gather(*(take(900_005, 1000.0) for _ in range(20)))
    assert taken.count(True) == 3


async def test_turn_credentials_per_person_an_hour(settings):
    settings.CALL_TURN_CREDENTIALS_PER_HOUR = 2
    assert await budgets.take_turn_credentials(user_id=900_006) is None
    assert await budgets.take_turn_credentials(user_id=900_006) is None
    wait = await budgets.take_turn_credentials(user_id=900_006)
    assert wait is not None and 3590 <= wait <= 3600
    assert await budgets.take_turn_credentials(user_id=900_007) is None
