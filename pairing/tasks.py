"""Celery tasks of the pairing pool: thin, they call services (docs/architecture.md "How code is
shaped here").

`sweep_pools` runs every POOL_SWEEP_SECONDS from beat: it widens every waiting player's window
as time passes (pairing again), expires unanswered proposals and takes out players whose page is
gone. A join pairs at once on its own; the sweep is what pairs players who waited for the window
to widen.
"""

from __future__ import annotations

from celery import shared_task

from pairing.services import pools_sweep


@shared_task(name="pairing.sweep_pools", ignore_result=True, expires=5)
def sweep_pools() -> dict[str, int]:
    return pools_sweep()
