"""A correspondence match across a restart of every process (docs/rules.md, Platform rules,
Correspondence): Daphne, the Celery worker and beat are killed with SIGKILL (nothing flushed, the
worker's tasks unacknowledged), the turn's day runs out while nothing runs, and once the processes
are started again the beat's sweep plays the turn for the absent player and the opponent is
emailed that their turn waits. The day is the test's clock setting as elsewhere: the turn's start
and deadline moved back a day in the database (tests/games/timing.py)."""

from __future__ import annotations

import sys
from datetime import timedelta

import pytest
from django.conf import settings

from config import processes
from config.celery import app
from games import services
from games.models import Game, Match, Turn
from tests.conftest import PROCESS_START_TIMEOUT, child_environment, start_celery_beat
from tests.factories import make_user

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def start_every_process(environment, log_path, tmp_path, name: str) -> dict:
    """Daphne, a Celery worker and the beat, each in a process group of its own (so a SIGKILL
    of one group kills that process and its children, nothing left running behind it), the
    worker's output (the console email backend's letters among it) in `log_path`."""
    port = processes.free_port()
    log = open(log_path, "ab")  # noqa: SIM115 (the children's; closed with the test's files)
    daphne = processes.start(
        [sys.executable, "-m", "config.server", "-b", "127.0.0.1", "-p", str(port),
         "web.asgi:application"],
        env=environment,
    )  # fmt: skip
    worker = processes.start(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING",
            "--without-gossip", "--without-mingle", "--concurrency", "1", "--hostname",
            f"{name}@%h",
        ],
        env=environment, stdout=log, stderr=log,
    )  # fmt: skip
    beat = start_celery_beat(environment, tmp_path / "beat-schedule")
    everything = {"Daphne": daphne, "the worker": worker, "beat": beat}
    try:
        processes.wait_until(
            lambda: processes.http_ok(f"http://127.0.0.1:{port}/healthz"),
            timeout=PROCESS_START_TIMEOUT, what="Daphne", processes=everything,
        )  # fmt: skip
        processes.wait_until(
            lambda: any(name in key for reply in app.control.ping(timeout=0.5) for key in reply),
            timeout=PROCESS_START_TIMEOUT, what="the worker", processes=everything,
        )  # fmt: skip
    except BaseException:
        processes.stop(everything.values())  # none left running behind a failed start
        raise
    return everything


def test_a_days_deadline_holds_across_a_restart_of_every_process(
    fixed_dice, test_database_name, tmp_path
):
    white, black = make_user("corr_drill_w"), make_user("corr_drill_b")
    # Its own site, worker and beat on a queue of their own: the session's site must not sweep.
    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-correspondence"
    environment = child_environment(
        test_database_name, DEADLINE_SWEEP_SECONDS="0.5", CELERY_QUEUE=queue
    )
    log = tmp_path / "worker.log"
    running = start_every_process(environment, log, tmp_path, "corr-first")
    try:
        match = services.match_create(
            creator=white, time_control="correspondence", move_days=1, turn_seconds=None
        )
        fixed_dice(6, 1, 5, 2)
        services.match_accept(user=black, match_id=match.pk)
        game = Game.objects.get(match=match)
        assert game.turn_deadline - game.turn_started_at == timedelta(days=1)
    finally:
        for process in running.values():
            processes.kill(process)  # every process, nothing said goodbye
    assert all(process.poll() is not None for process in running.values())

    # The day goes by while nothing runs.
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at - timedelta(days=1, seconds=5),
        turn_deadline=game.turn_deadline - timedelta(days=1, seconds=5),
    )
    assert not Turn.objects.filter(game=game).exists()

    restarted = start_every_process(environment, log, tmp_path, "corr-second")
    try:
        processes.wait_until(
            lambda: Turn.objects.filter(game=game, number=1).exists(),
            timeout=60, what="the sweep playing the absent player's turn", processes=restarted,
        )  # fmt: skip
        # The opponent hears that their turn waits: the email of the worker that restarted.
        processes.wait_until(
            lambda: f"Your turn against {white.username}" in log.read_text(errors="replace"),
            timeout=60, what="the email to the opponent", processes=restarted,
        )  # fmt: skip
    finally:
        processes.stop(restarted.values())
    (turn,) = Turn.objects.filter(game=game)
    assert turn.by_server and turn.player_id == white.pk
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.timeouts_creator) == ("active", 1)
    game.refresh_from_db()
    assert game.turn == "b" and game.turn_deadline - game.turn_started_at == timedelta(days=1)
