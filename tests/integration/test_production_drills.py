"""Restart drills in the production topology (docs/operations.md, "Production"): matches in
progress, players
sending steps throughout, one piece killed or restarted. After each drill every socket is back
with the version PostgreSQL holds, and no acknowledged step is lost or applied twice
(bench/topology.py, LiveMatches). Each drill prints its time to recover; `make prod-check` runs
them with -s. They run after test_production.py on the same topology, and each leaves it whole
again."""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from bench.live_matches import LiveMatches, metric_total

pytestmark = pytest.mark.integration

# Errors a player may meet around a restart, each of which changes nothing: its step was based
# on a version that moved on (an event it missed), or the database was out of reach.
EXPECTED_ERRORS = {"stale_version", "unavailable", "not_your_turn"}


async def until(condition, what: str, timeout: float = 60.0) -> None:
    """Wait for a condition, never a fixed time: how long it takes is the machine's business."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout:.0f} s")
        await asyncio.sleep(0.05)


def still_playing(live: LiveMatches) -> list:
    return [
        match
        for match in live.client.matches
        if match.sockets[0].state and match.sockets[0].state["match"]["status"] == "active"
    ]


async def played_on(live: LiveMatches) -> None:
    """Until every match still being played has a command acknowledged after now."""
    since = time.monotonic()
    await until(
        lambda: all(match.last_ack_at > since for match in still_playing(live)), "play going on"
    )


def assert_nothing_lost(live: LiveMatches, *, allowed_errors=EXPECTED_ERRORS) -> dict:
    report = live.report
    result = report["result"]
    assert report["lost_steps"] == 0, report["database"]
    assert report["doubled_steps"] == 0, report["database"]
    assert report["inconsistent"] == [], (report["inconsistent"], result["notes"][-20:])
    assert set(result["errors"]) <= allowed_errors, result["errors"]
    assert result["connect_failures"] == {}
    return report


def print_drill(name: str, recovered: float, report: dict, extra: str = "") -> None:
    result = report["result"]
    print(
        f"\nDRILL {name}: clients recovered in {recovered:.2f} s{extra}; "
        f"acked steps={report['acked_steps']} in doubt={report['steps_in_doubt']} "
        f"lost={report['lost_steps']} doubled={report['doubled_steps']} "
        f"reconnects={result['reconnects']} resyncs after an ack={result['ack_resyncs']} "
        f"errors={result['errors'] or 0}",
        flush=True,
    )


async def test_drill_one_daphne_killed(production):
    async with LiveMatches(production, matches=4, step_interval=0.4) as live:
        await played_on(live)
        victims = [s for s in live.client.sockets if (s.upstream or "").endswith("daphne-1.sock")]
        assert victims, "least_conn put no socket on daphne-1"
        fault = time.monotonic()
        production.kill("daphne-1")
        recovered = await live.recovered(since=fault)
        await asyncio.to_thread(production.start_daphne, 1)
        await asyncio.to_thread(production.wait_daphne, 1)
        process_back = time.monotonic() - fault
        await played_on(live)
    report = assert_nothing_lost(live)
    assert report["result"]["reconnects"] >= len(victims)
    print_drill(
        "daphne-1 SIGKILL",
        recovered,
        report,
        f" ({len(victims)} sockets moved to daphne-2; process serving again after "
        f"{process_back:.2f} s)",
    )


async def test_drill_redis_restarted(production):
    async with LiveMatches(production, matches=4, step_interval=0.4) as live:
        await played_on(live)
        restarts_before = len(production.restarts)
        fault = time.monotonic()
        await asyncio.to_thread(production.redis.stop)  # SIGTERM: Redis saves, then exits
        await asyncio.sleep(1)  # the outage itself (a second), not a wait for something
        await asyncio.to_thread(production.redis.start)
        redis_back = time.monotonic() - fault
        recovered = await live.recovered(since=fault)
        # Worker and channel layer too; a Celery process that kombu's Redis transport ended
        # meanwhile is started again, as its systemd unit would be (bench/topology.py
        # RESTARTED_LIKE_SYSTEMD), and the line below names it.
        await asyncio.to_thread(production.wait_healthy)
        healthy = time.monotonic() - fault
        await played_on(live)
    report = assert_nothing_lost(live)
    restarted = ", ".join(
        f"{name} (exit {code})" for name, code in production.restarts[restarts_before:]
    )
    print_drill(
        "Redis restarted",
        recovered,
        report,
        f" (Redis down {redis_back:.2f} s; /healthz green after {healthy:.2f} s"
        + (f"; started again as systemd would: {restarted}" if restarted else "")
        + ")",
    )


async def test_drill_postgres_restarted(production):
    """PostgreSQL stays down longer than the pool's 10 s wait, so commands sent meanwhile get
    `unavailable`; none of them changes anything."""
    async with LiveMatches(production, matches=4, step_interval=0.4) as live:
        await played_on(live)
        fault = time.monotonic()
        await asyncio.to_thread(production.postgres.stop)
        # The outage itself, not a wait for something: longer than the pool's 10 s wait for a
        # connection (config/settings/), which is what this drill is about.
        await asyncio.sleep(12)
        await asyncio.to_thread(production.postgres.start)
        database_back = time.monotonic() - fault
        recovered = await live.recovered(since=fault)
        await played_on(live)
    report = assert_nothing_lost(live)
    assert report["result"]["errors"].get("unavailable", 0) >= 1
    print_drill(
        "PostgreSQL restarted",
        recovered,
        report,
        f" (down {database_back:.2f} s; unavailable errors: "
        f"{report['result']['errors'].get('unavailable', 0)})",
    )


async def test_drill_worker_killed_deadline_still_enforced(production):
    """The worker dies holding the task scheduled for a deadline (unacknowledged for the broker's
    hour); a new worker starts and the beat sweep enforces the deadline."""
    async with (
        LiveMatches(production, matches=3, step_interval=0.4) as live,
        LiveMatches(
            production, matches=1, spectators_per_match=0, step_interval=600, turn_seconds=30
        ) as timed,
    ):
        # The deadline's task goes to the worker when the timed match begins; on a loaded
        # machine the worker may take it a moment later, so the drill waits until the worker
        # says it holds it (else a new worker would simply receive it and run it on time).
        await played_on(live)
        held: list = []
        waited = time.monotonic()
        while not set(timed.match_ids) <= set(held) and time.monotonic() - waited < 30:
            held = await asyncio.to_thread(production.django_task, "held_deadlines", {})
        assert set(timed.match_ids) <= set(held), ("no worker holds the deadline", held)
        fault = time.monotonic()
        production.kill("worker")  # SIGKILL, and waits for the process to be gone
        await asyncio.to_thread(production.start_worker)
        recovered = await live.recovered(since=fault)
        await asyncio.to_thread(production.wait_healthy)
        worker_back = time.monotonic() - fault
        turns: list = []
        while not turns and time.monotonic() - fault < 60:
            await asyncio.sleep(1)
            turns = await asyncio.to_thread(
                production.django_task, "server_turns", {"match_ids": timed.match_ids}
            )
    assert turns, "the deadline was not enforced within 60 s of the kill"
    first = min(turns, key=lambda turn: turn["finished_at"])
    assert 0 <= first["late_seconds"] < 5
    report = assert_nothing_lost(live)
    assert_nothing_lost(timed)
    print_drill(
        "Celery worker SIGKILL",
        recovered,
        report,
        f" (new worker answering after {worker_back:.2f} s; the deadline held by the killed "
        f"worker enforced {first['late_seconds'] * 1000:.0f} ms late by the beat sweep)",
    )


def test_an_exited_beat_is_started_again_as_systemd_would(production):
    """A Celery process that ends by itself (here the beat, told to stop as nobody in production
    would) is started again by the next health wait, as its unit's Restart=always does, and the
    restart is noted; the restart drills lean on it when kombu ends the worker."""
    before = len(production.restarts)
    beat = production.children.processes["beat"]
    beat.send_signal(signal.SIGTERM)
    beat.wait(timeout=30)
    production.wait_healthy()
    assert production.restarts[before:] == [("beat", beat.returncode)]
    again = production.children.processes["beat"]
    assert again is not beat and again.poll() is None


def test_metrics_saw_the_drills(production):
    """After the drills: the sweep's lateness, the outage's `unavailable` answers and the
    publishes that waited for Redis are all on /metrics."""
    status, body = production.get("/metrics")
    assert status == 200
    text = body.decode()
    assert metric_total(text, "nardy_deadline_lateness_seconds_count", enforcer="sweep") >= 1
    assert metric_total(text, "nardy_socket_commands_total", result="unavailable") >= 1
    print(
        "\n"
        + "\n".join(
            line
            for line in text.splitlines()
            if line.startswith(
                (
                    "nardy_deadline_lateness_seconds_count",
                    "nardy_publish_retries_total",
                    "nardy_socket_commands_total",
                    "nardy_celery_tasks_total",
                    "nardy_sockets_open",
                )
            )
        )
    )
