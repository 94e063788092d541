"""The computer's moves have their own Celery queue (settings `CELERY_BOT_QUEUE`), so bot work
never waits in front of a deadline: a worker started for the default queue alone (production's
deadline worker, docs/operations.md "Production") enforces a deadline and never takes a bot's move,
which
waits for the bots' worker. These workers run on queues of their own (the session's site worker
consumes this run's queues), named as the router names the real ones."""

from __future__ import annotations

import os
import sys
import time

import pytest
from django.conf import settings

from config import processes
from config.celery import app
from games import services
from games.models import Match, Turn
from games.tasks import bot_act, enforce_deadline
from tests.conftest import PROCESS_START_TIMEOUT, child_environment
from tests.factories import make_user
from tests.games.timing import expire_in

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_bot_work_is_routed_to_its_own_queue_named_with_the_runs_prefix():
    default, bots = settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_BOT_QUEUE
    assert default.startswith(os.environ["CELERY_QUEUE"]) and bots == f"{default}.bots"
    for task in ("games.bot_act", "games.nudge_bots"):
        assert routed_queue(task) == bots, task
    for task in ("games.enforce_deadline", "games.sweep_deadlines", "pairing.sweep_pools"):
        assert routed_queue(task) == default, task
    # A worker started without -Q (make run, the tests) consumes both.
    assert {default, bots} <= set(app.amqp.queues)


def routed_queue(task: str) -> str:
    return app.amqp.router.route({}, task)["queue"].name


def own_queue(task: str) -> str:
    """The queue the router picks for `task`, moved onto this test's own prefix."""
    name = routed_queue(task)
    assert name.startswith(settings.CELERY_TASK_DEFAULT_QUEUE)
    return OWN_QUEUE + name[len(settings.CELERY_TASK_DEFAULT_QUEUE) :]


OWN_QUEUE = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-bot-queue-test"


def _start_worker_for(queue: str, test_database_name: str, name: str):
    hostname = f"{name}-{os.getpid()}"
    process = processes.start(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING",
            "--without-gossip", "--without-mingle", "--concurrency", "1", "-Q", queue,
            "--hostname", f"{hostname}@%h",
        ],
        env=child_environment(test_database_name, CELERY_QUEUE=OWN_QUEUE),
    )  # fmt: skip
    processes.wait_until(
        lambda: any(hostname in key for reply in app.control.ping(timeout=0.5) for key in reply),
        timeout=PROCESS_START_TIMEOUT,
        what=f"Celery worker for {queue}",
        processes=process,
    )
    return process


def test_a_deadline_worker_never_runs_bot_work_and_a_bots_worker_does(
    test_database_name, fixed_dice, settings
):
    """Production's two workers (docs/operations.md "Production"): the one for the default queue
    enforces a
    deadline while the computer's move waits in the bots' queue; the bots' worker plays it."""
    # The services' own tasks (on this run's queues, which the session's worker may consume)
    # come due long after this test: only the tasks sent below to this test's queues count.
    settings.BOT_THINK_SECONDS = 3600
    fixed_dice(2, 6)  # the computer wins the opening roll: its first step is to be played
    person = make_user("waits_for_the_bot")
    bot_match = services.match_create_vs_bot(user=person, level="club", turn_seconds=None)
    bot_version = Match.objects.get(pk=bot_match.pk).version
    fixed_dice(6, 2)  # a match between people, its first mover about to time out
    white, black = make_user("slow_white"), make_user("slow_black")
    timed = services.match_create(creator=white, turn_seconds=30, rated=False)
    services.match_accept(user=black, match_id=timed.pk)
    timed.refresh_from_db()
    # As games/tasks.py schedules them, routed as the settings route them (before the bots'
    # queue existed, bot_act went to the default queue like everything else).
    bot_act.apply_async((bot_match.pk, bot_version), queue=own_queue("games.bot_act"))
    game = expire_in(timed, 0.3, schedule=False)
    enforce_deadline.apply_async(
        (timed.pk, game.pk, game.turn_number),
        eta=game.turn_deadline,
        queue=own_queue("games.enforce_deadline"),
    )
    deadline_worker = _start_worker_for(OWN_QUEUE, test_database_name, "deadlines")
    try:
        processes.wait_until(
            lambda: Turn.objects.filter(game=game, by_server=True).exists(),
            timeout=30,
            what="the deadline enforced",
            processes=deadline_worker,
        )
        # The bot's task was sent first; give the deadline worker two more seconds in which it
        # could (wrongly) take it.
        time.sleep(2)
        assert Match.objects.get(pk=bot_match.pk).version == bot_version
    finally:
        processes.stop(deadline_worker)
    bots_worker = _start_worker_for(f"{OWN_QUEUE}.bots", test_database_name, "bots")
    try:
        processes.wait_until(
            lambda: Match.objects.get(pk=bot_match.pk).version > bot_version,
            timeout=30,
            what="the computer's move played by the bots' worker",
            processes=bots_worker,
        )
    finally:
        processes.stop(bots_worker)
