"""Celery tasks of tournaments: thin, they take ids and call services (docs/architecture.md "How
code is shaped
here").

- `start_tournament` / `finish_tournament`: scheduled with an ETA at the very second
  (tournaments/schedule.py); the service does nothing when it is early or done.
- `sweep_tournaments`: beat, every TOURNAMENT_SWEEP_SECONDS: whatever is overdue (a worker killed
  holding an ETA task), lost scores, pairing, the coalesced standings (tournaments/live.py).
- `schedule_series`: beat, every minute: the series' next tournaments.
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from tournaments import schedule
from tournaments.services.clock import (
    series_schedule,
    tournament_finish,
    tournament_start,
    tournaments_sweep,
)


@shared_task(name="tournaments.start", acks_late=True, ignore_result=True)
def start_tournament(tournament_id: int) -> bool:
    return tournament_start(tournament_id=tournament_id)


@shared_task(name="tournaments.finish", acks_late=True, ignore_result=True)
def finish_tournament(tournament_id: int) -> bool:
    return tournament_finish(tournament_id=tournament_id)


@shared_task(name="tournaments.sweep", ignore_result=True, expires=5)
def sweep_tournaments() -> dict[str, int]:
    return tournaments_sweep()


@shared_task(name="tournaments.schedule_series", ignore_result=True, expires=50)
def schedule_series() -> int:
    return series_schedule()


def connect() -> None:
    """Fill tournaments/schedule.py's hooks (TournamentsConfig.ready(), in every process)."""
    schedule.start.fill(lambda tournament_id, at: _at(start_tournament, tournament_id, at))
    schedule.finish.fill(lambda tournament_id, at: _at(finish_tournament, tournament_id, at))


def _at(task, tournament_id: int, at: datetime) -> None:  # noqa: ANN001
    task.apply_async((tournament_id,), eta=at)
