from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings

from pairing import liveness
from pairing.models import PoolEntry
from pairing.pools import Pool
from tests.factories import make_user

TRADITIONAL_1_60 = Pool("traditional", 1, 60, True)


@pytest.fixture(autouse=True)
def _clean_pairing_keys():
    """This run's pairing keys in Redis start and end empty (never other runs' keys)."""
    redis = liveness._sync_client()
    keys = [liveness.alive_key(), liveness.counts_key()]
    redis.delete(*keys)
    yield
    redis.delete(*keys)


def rated(username: str, rating: float):
    from ratings.models import Rating

    user = make_user(username)
    Rating.objects.create(user=user, rating=rating, peak=rating)
    return user


def backdate(user, seconds: float) -> None:
    """As if the player had joined `seconds` ago (the window widens with the wait)."""
    joined = PoolEntry.objects.get(user=user).joined_at
    PoolEntry.objects.filter(user=user).update(joined_at=joined - timedelta(seconds=seconds))


def gone(user, seconds: float = 60) -> None:
    """As if the player's page had last been seen `seconds` ago."""
    import time

    liveness._sync_client().zadd(liveness.alive_key(), {str(user.pk): time.time() - seconds})


@pytest.fixture
def pool_settings():
    assert settings.POOL_GONE_SECONDS > 0
    return TRADITIONAL_1_60
