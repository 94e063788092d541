from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import make_user
from tournaments.models import Pairing, Status, Tournament
from tournaments.services.players import tournament_join


def rated(username: str, rating: float = 1500, matches: int = 0):
    from ratings.models import Rating

    user = make_user(username)
    Rating.objects.create(user=user, rating=rating, peak=rating, matches=matches)
    return user


def arena(*, running: bool = True, minutes: int = 30, **fields) -> Tournament:
    """A tournament started a minute ago (or starting in an hour), 30 minutes long."""
    now = timezone.now()
    starts_at = now - timedelta(minutes=1) if running else now + timedelta(hours=1)
    fields.setdefault("name", "Evening arena")
    return Tournament.objects.create(
        starts_at=starts_at, ends_at=starts_at + timedelta(minutes=minutes), minutes=minutes,
        status=Status.RUNNING if running else Status.SCHEDULED,
        started_at=starts_at if running else None, **fields,
    )  # fmt: skip


def waiting_arena(users) -> Tournament:
    """An arena the users joined before its start, starting now: nobody is paired yet."""
    tournament = arena(running=False)
    for user in users:
        tournament_join(user=user, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Status.RUNNING, starts_at=timezone.now()
    )
    assert not Pairing.objects.exists()
    return tournament


@pytest.fixture
def players():
    return [rated(f"arena{index}", 1500 + 10 * index) for index in range(4)]


@pytest.fixture(autouse=True)
def _clean_changed_set():
    """This run's set of changed tournaments (tournaments/live.py) starts and ends empty."""
    from config.redis_client import sync_client
    from tournaments import live

    client = sync_client()
    keys = lambda: [live._dirty_key(), *client.keys(f"{live._dirty_key()}:sent:*")]  # noqa: E731
    client.delete(*keys())
    yield
    client.delete(*keys())
