"""A worker killed while it holds a turn's deadline task: the beat sweep enforces it once."""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from config import processes
from config.celery import app
from games import services
from games.models import Match, Turn
from games.tasks import enforce_deadline
from tests.conftest import child_environment, start_celery_beat, start_celery_worker
from tests.factories import make_user
from tests.games.timing import expire_in

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def holds_task(worker_name: str, match_id: int) -> bool:
    scheduled = app.control.inspect(timeout=1.0).scheduled() or {}
    for name, tasks in scheduled.items():
        if worker_name in name and any(task["request"]["args"][0] == match_id for task in tasks):
            return True
    return False


def test_killed_worker_then_sweep_enforces_once(fixed_dice, test_database_name, tmp_path):
    white, black = make_user("kw"), make_user("kb")
    match = services.match_create(creator=white, turn_seconds=30)
    fixed_dice(6, 1, 5, 2)
    services.match_accept(user=black, match_id=match.pk)
    match.refresh_from_db()
    # Its own workers and beat, on a queue of their own: the test must know exactly which worker
    # holds the task, and that nobody else (the session's site) can take it or sweep.
    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-recovery"
    environment = child_environment(
        test_database_name, DEADLINE_SWEEP_SECONDS="0.5", CELERY_QUEUE=queue
    )

    first = start_celery_worker(environment, "doomed")
    try:
        # Far enough ahead that the doomed worker cannot reach the deadline before it is killed,
        # even on a loaded machine (4 s failed under a load of 10 on 2 cores: it enforced first).
        game = expire_in(match, 12.0, schedule=False)
        # As the services schedule it after commit, on the workers' queue.
        enforce_deadline.apply_async(
            (match.pk, game.pk, game.turn_number), eta=game.turn_deadline, queue=queue
        )
        processes.wait_until(
            lambda: holds_task("doomed", match.pk), timeout=10, what="the worker holding the task"
        )
        processes.kill(first)  # no warm shutdown: the task stays unacknowledged
    finally:
        processes.stop(first)

    time.sleep(max(0.0, game.turn_deadline.timestamp() + 1.0 - time.time()))
    assert not Turn.objects.filter(game=game).exists()  # nobody alive to enforce it yet

    second = start_celery_worker(environment, "rescuer")
    beat = start_celery_beat(environment, tmp_path / "beat-schedule")
    try:
        processes.wait_until(
            lambda: Turn.objects.filter(game=game, number=1).exists(), timeout=20, what="the sweep"
        )
        time.sleep(2.0)  # more sweeps run; none may enforce the turn again
    finally:
        processes.stop([beat, second])
    turns = list(Turn.objects.filter(game=game, number=1))
    assert len(turns) == 1 and turns[0].by_server
    assert Match.objects.get(pk=match.pk).timeouts_creator == 1
    # The old task, were it ever redelivered, finds the turn over and does nothing.
    assert services.game_deadline_enforce(match_id=match.pk, game_id=game.pk, turn_number=1) is None
    assert Turn.objects.filter(game=game).count() == 1
