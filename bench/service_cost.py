"""What one play command costs in the service layer: CPU and wall time, here and in PostgreSQL.

    make bench-service BENCH_ARGS="--commands 3000"

Plays random legal rolls and steps through `games.services` (the same calls the match socket
makes), one command at a time in this process: on throwaway embedded servers, or on the database
DATABASE_URL names when it is set (it migrates it and creates its own users and matches there, so
use a scratch database). Prints per-command CPU time (this
thread only: Python, the ORM, psycopg) and wall time, split by command type, and the CPU time of
the PostgreSQL server process that ran them (when the server is on this machine).
The live benchmark (bench/live_load.py) measures the whole path; this isolates the part the
service owns, so a change to it can be judged in seconds. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    from config.embedded import EmbeddedServices

    with EmbeddedServices(None):  # sets DATABASE_URL / REDIS_URL unless they are set
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                       cwd=Path(__file__).resolve().parent.parent, check=True)  # fmt: skip
        return measure(arguments)


def measure(arguments: argparse.Namespace) -> int:
    import django

    django.setup()
    from django.db import connection, connections

    from accounts.models import User
    from games import services
    from games.models import Match
    from games.services.state_rows import match_state_of
    from nardy import legal_next_steps

    # As in Daphne: an event loop attached to the publisher, so a command's after-commit work
    # only hands its messages over (realtime/publisher.py); that hand-over is measured, the
    # loop's sending (another thread) is not.
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    asyncio.run_coroutine_threadsafe(_attach(), loop).result()
    rng = random.Random(arguments.seed)
    prefix = f"cost{secrets.token_hex(3)}_"
    User.objects.bulk_create(
        [User(username=f"{prefix}{i}", email=f"{prefix}{i}@bench.invalid", auto_roll=False,
              confirm_turn=False)
         for i in range(2 * arguments.matches)]
    )  # fmt: skip
    users = list(User.objects.filter(username__startswith=prefix).order_by("pk"))
    match_ids = []
    for index in range(arguments.matches):
        match = services.match_create(creator=users[2 * index], rated=False, turn_seconds=None)
        services.match_accept(user=users[2 * index + 1], match_id=match.pk)
        match_ids.append(match.pk)
    by_id = {user.pk: user for user in users}

    with connection.cursor() as cursor:  # this connection's server process, for its CPU time
        cursor.execute("SELECT pg_backend_pid()")
        backend = int(cursor.fetchone()[0])
    backend_before = backend_cpu_seconds(backend)
    cpu: dict[str, list[float]] = defaultdict(list)
    wall: dict[str, list[float]] = defaultdict(list)
    done = 0
    # This script reads each match through another connection, so the measured server process
    # runs the commands alone.
    connections.databases["reads"] = {**connections.databases["default"]}
    while done < arguments.commands:
        match_id = rng.choice(match_ids)
        match = Match.objects.using("reads").get(pk=match_id)
        if match.status != "active":
            match_ids.remove(match_id)
            continue
        game = match.games.order_by("-number").first()
        mover = by_id[match.player_id(game.seat_of_side(game.turn))]
        command = {"user": mover, "match_id": match_id, "version": match.version}
        if game.phase == "roll":
            kind, call, extra = "roll", services.game_roll, {}
        else:
            step = rng.choice(legal_next_steps(match_state_of(match, game).turn_state()))
            kind, call, extra = "step", services.game_step_play, {"step": step}
        started_cpu, started_wall = time.thread_time(), time.perf_counter()
        call(**command, **extra)
        cpu[kind].append((time.thread_time() - started_cpu) * 1000)
        wall[kind].append((time.perf_counter() - started_wall) * 1000)
        done += 1

    backend_cpu = backend_cpu_seconds(backend) - backend_before
    print(f"commands={done} matches={arguments.matches}")
    for kind in sorted(cpu):
        print(
            f"{kind:5} n={len(cpu[kind]):5} cpu ms mean={statistics.fmean(cpu[kind]):.2f} "
            f"p50={statistics.median(cpu[kind]):.2f}  wall ms mean={statistics.fmean(wall[kind]):.2f} "
            f"p50={statistics.median(wall[kind]):.2f}"
        )  # fmt: skip
    every_cpu = [value for values in cpu.values() for value in values]
    print(f"all   cpu ms mean={statistics.fmean(every_cpu):.2f}")
    if backend_cpu >= 0:
        print(f"postgres server process cpu ms/command={1000 * backend_cpu / done:.2f}")
    return 0


async def _attach() -> None:
    from realtime import publisher

    publisher.attach()


def backend_cpu_seconds(pid: int) -> float:
    """CPU seconds of a local process (-1 when the database server is elsewhere)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return -1.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    raise SystemExit(main())
