"""Races of one player's tabs on real PostgreSQL and Redis: two tabs joining two pools at the same
instant, each pool with a partner waiting (pairing/services.py, lock order), repeated many times
because a race shows only sometimes."""

from __future__ import annotations

import threading

import pytest

from games.models import Match
from games.services import CommandError
from pairing import services
from pairing.models import PoolEntry
from pairing.pools import Pool
from tests.pairing.conftest import TRADITIONAL_1_60, rated
from tests.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)

TOURNAMENT_5_90 = Pool("tournament", 5, 90, True)
TRIALS = 16


def _tabs_at_once(player, pools: tuple[Pool, Pool]) -> tuple[list[str], list[BaseException]]:
    """`player` joins both pools from two threads released at the same instant; the refusals'
    codes and anything else raised."""
    start = threading.Barrier(len(pools))
    refusals: list[str] = []
    failures: list[BaseException] = []

    def tab(pool: Pool) -> None:
        start.wait()
        try:
            services.pool_join(user=player, pool=pool)
        except CommandError as error:
            refusals.append(error.code)
        except Exception as error:  # noqa: BLE001 - collected for the assertion
            failures.append(error)

    run_together(*[lambda pool=pool: tab(pool) for pool in pools])
    return refusals, failures


def test_two_tabs_joining_two_pools_with_partners_never_deadlock_and_end_in_one_match():
    """The pool locks are taken in one order (a lock per player first, then a pool's): a
    deadlock would surface as PostgreSQL's error after its deadlock_timeout, which the socket
    reported as the database being unreachable."""
    for trial in range(TRIALS):
        player = rated(f"tabs{trial}", 1500)
        partners = (rated(f"left{trial}", 1510), rated(f"right{trial}", 1490))
        for partner, pool in zip(partners, (TRADITIONAL_1_60, TOURNAMENT_5_90), strict=True):
            services.pool_join(user=partner, pool=pool)
        refusals, failures = _tabs_at_once(player, (TRADITIONAL_1_60, TOURNAMENT_5_90))
        assert failures == [], (trial, failures)
        assert set(refusals) <= {"in_a_match"}, (trial, refusals)
        matches = Match.objects.filter(paired_waits__user=player)
        assert matches.count() == 1, (trial, refusals)
        assert not PoolEntry.objects.filter(user=player).exists(), trial
        (match,) = matches
        assert match.status == "active"
        # The partner not paired waits on, alone in their pool.
        assert PoolEntry.objects.filter(user__in=partners).count() == 1, trial
        PoolEntry.objects.all().delete()  # the next trial starts with empty pools
