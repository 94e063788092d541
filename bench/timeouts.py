"""Timeout lateness through the real Celery worker: `make bench-timeouts` or

    .venv/bin/python -m bench.timeouts [--matches 100] [--turn-seconds 30]

Phase 1 (normal path): N timed matches start within a few seconds; nobody moves; each first
turn's deadline is enforced by the task scheduled after commit. Phase 2: the same again, and the
worker is killed with SIGKILL while it holds the pending tasks, half-way through the deadlines; a
new worker starts a second later and the beat sweep (every DEADLINE_SWEEP_SECONDS) must catch up.

Lateness = deadline → the auto-move's events published on the channel layer (received by a
listener subscribed to every match group). Prints p50/p99/max and whether any was early or
enforced twice. With DATABASE_URL / REDIS_URL unset it runs on throwaway embedded servers; with
them set it uses a separate `nardy_bench` database and its own Redis prefix.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.live_load import LOG_DIR, STOP_GRACE, percentile, prepare_bench_database
from config import processes
from config.processes import Children

ROOT = Path(__file__).resolve().parent.parent


def start_worker(children: Children, name: str, environment: dict[str, str]) -> None:
    children.start(
        name,
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING",
         "--without-gossip", "--without-mingle", "--hostname", f"{name}@%h"],
        environment,
    )  # fmt: skip


def wait_for_worker(name: str, timeout: float = 60) -> None:
    from config.celery import app

    processes.wait_until(
        lambda: any(name in key for reply in app.control.ping(timeout=0.5) for key in reply),
        timeout=timeout, what=f"worker {name} (a ping)", interval=0,
    )  # fmt: skip


def create_matches(
    count: int, turn_seconds: int, tag: str, spread_seconds: float
) -> dict[int, float]:
    """`count` accepted timed matches, started evenly over `spread_seconds`; match id → deadline."""
    from allauth.account.models import EmailAddress

    from accounts.models import User
    from games import services

    deadlines: dict[int, float] = {}
    for index in range(count):
        # Turns end with their last step, or the server's ("confirm my turn" off).
        white = User.objects.create_user(
            f"{tag}w{index}", f"{tag}w{index}@bench.invalid", None, confirm_turn=False
        )
        black = User.objects.create_user(
            f"{tag}b{index}", f"{tag}b{index}@bench.invalid", None, confirm_turn=False
        )
        EmailAddress.objects.bulk_create(
            [
                EmailAddress(user=u, email=u.email, verified=True, primary=True)
                for u in (white, black)
            ]
        )
        match = services.match_create(creator=white, turn_seconds=turn_seconds, rated=False)
        services.match_accept(user=black, match_id=match.pk)
        game = match.games.get()
        deadlines[match.pk] = game.turn_deadline.timestamp()
        time.sleep(spread_seconds / count)
    return deadlines


async def listen(
    deadlines: dict[int, float], received: dict[int, list[float]], stop_at: float
) -> None:
    """Record when each match's server turn (or match end) is published."""
    from config.redis_client import client
    from games.events import match_channel

    pubsub = client().pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(*(match_channel(match_id) for match_id in deadlines))
    while time.time() < stop_at and any(not received.get(m) for m in deadlines):
        received_message = await pubsub.get_message(timeout=1.0)
        if received_message is None:
            continue
        message = json.loads(received_message["data"])
        now = time.time()
        for wire in message.get("events", []):
            if json.loads(wire["text"])["kind"] == "timeout":
                received.setdefault(message["match"], []).append(now)
    await pubsub.aclose()


def report(title: str, deadlines: dict[int, float], received: dict[int, list[float]]) -> str:
    lateness_ms = sorted(
        (received[m][0] - deadlines[m]) * 1000 for m in deadlines if received.get(m)
    )
    missing = sum(1 for m in deadlines if not received.get(m))
    twice = sum(1 for m in deadlines if len(received.get(m, [])) > 1)
    early = sum(1 for value in lateness_ms if value < 0)
    if not lateness_ms:
        return f"{title}: nothing enforced (missing {missing})"
    return (
        f"{title}: n={len(lateness_ms)} lateness ms p50={percentile(lateness_ms, 0.5):.0f} "
        f"p99={percentile(lateness_ms, 0.99):.0f} max={lateness_ms[-1]:.0f} "
        f"min={lateness_ms[0]:.0f}; early={early} missing={missing} enforced twice={twice}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.timeouts")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--turn-seconds", type=int, default=30, choices=(30, 60, 90, 120))
    parser.add_argument(
        "--spread", type=float, default=6.0, help="seconds over which matches start"
    )
    parser.add_argument("--sweep-seconds", default="0.5")
    arguments = parser.parse_args(argv)

    from config.embedded import EmbeddedServices

    token = secrets.token_hex(4)
    children = Children(LOG_DIR, grace=STOP_GRACE)
    with EmbeddedServices(None):
        environment = dict(os.environ)
        if os.environ.get("DATABASE_URL"):
            prepare_bench_database(environment)
        environment.update(
            REDIS_PREFIX=f"nardy-bench-{token}", CELERY_QUEUE=f"nardy-bench-{token}",
            DJANGO_SETTINGS_MODULE="config.settings",
            DEADLINE_SWEEP_SECONDS=arguments.sweep_seconds,
            LOG_LEVEL="WARNING", DEBUG=environment.get("DEBUG", "1"),
        )  # fmt: skip
        os.environ.update(environment)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                       cwd=ROOT, env=environment, check=True)  # fmt: skip
        import django

        django.setup()
        beat_schedule = Path(tempfile.mkdtemp(prefix="bench-beat-")) / "schedule"
        try:
            start_worker(children, "first", environment)
            children.start(
                "beat",
                [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING",
                 "--schedule", str(beat_schedule)],
                environment,
            )  # fmt: skip
            wait_for_worker("first")
            print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()}", flush=True)

            # Phase 1: the normal path.
            deadlines = create_matches(
                arguments.matches, arguments.turn_seconds, f"n{token}", arguments.spread
            )
            received: dict[int, list[float]] = {}
            asyncio.run(listen(deadlines, received, stop_at=max(deadlines.values()) + 20))
            time.sleep(2)  # anything enforced twice would show now
            print(report("normal path", deadlines, received), flush=True)

            # Phase 2: SIGKILL the worker half-way through the deadlines.
            deadlines = create_matches(
                arguments.matches, arguments.turn_seconds, f"k{token}", arguments.spread
            )
            received = {}
            halfway = sorted(deadlines.values())[len(deadlines) // 2]

            async def kill_and_listen() -> None:
                listener = asyncio.create_task(
                    listen(deadlines, received, stop_at=max(deadlines.values()) + 30)
                )
                await asyncio.sleep(max(0.0, halfway - time.time()))
                children.kill("first")
                print(f"killed the worker at deadline {len(deadlines) // 2} of {len(deadlines)}",
                      flush=True)  # fmt: skip
                await asyncio.sleep(1.0)
                start_worker(children, "second", environment)
                await listener

            asyncio.run(kill_and_listen())
            time.sleep(2)
            print(report("worker killed mid-way", deadlines, received), flush=True)
        finally:
            children.stop()
            children.close_logs()
    return 0


if __name__ == "__main__":
    sys.exit(main())
