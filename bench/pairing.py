"""Quick pairing under load: players join and leave pools over real lobby sockets
through two Daphne processes (one with the Celery beat that widens windows and expires offers),
and the time from join to paired and the database's load are printed.

    make bench-pairing BENCH_ARGS="--players 2000"

Each player opens a lobby socket (alternately on the two sites), joins one of the Play page's
tile pools at a random moment within `--spread` seconds, accepts a 400-point offer after 0.5-3 s
(`--decline` of them decline), and gives up after `--patience` seconds (`--leavers` of them leave
earlier, after 1-10 s). Ratings are spread normally around 1500 (sd 250). Join → paired is measured
from the join command leaving the client to `pool_matched` arriving (p50/p90/p99). The database's
load is PostgreSQL's own counters for the run's database (pg_stat_database: transactions, rows
read and written) over the run. Uses throwaway embedded servers, or DATABASE_URL / REDIS_URL (a
scratch database: it migrates it and adds its users there). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import time
from pathlib import Path

from bench.database import run_on_database
from config import processes

ROOT = Path(__file__).resolve().parent.parent
STATS = ("xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted",
         "tup_updated", "tup_deleted", "blks_read", "blks_hit")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--spread", type=float, default=60.0, help="joins spread over seconds")
    parser.add_argument("--patience", type=float, default=60.0)
    parser.add_argument("--leavers", type=float, default=0.1, help="share leaving early")
    parser.add_argument("--decline", type=float, default=0.1, help="share declining an offer")
    parser.add_argument("--seed", type=int, default=15)
    return run_on_database(run, parser.parse_args())


def start_site(beat: bool) -> tuple[subprocess.Popen, int]:
    port = processes.free_port()
    environment = dict(os.environ, PORT=str(port), SOCKETS_PER_ADDRESS="0",
                       SOCKET_RATE_LIMIT_MESSAGES="100000")  # fmt: skip
    command = [sys.executable, "-m", "config.launcher", "run", "--no-migrate"]
    if not beat:
        command.append("--no-beat")
    process = processes.start(command, env=environment)
    processes.wait_until(
        lambda: processes.http_ok(f"http://127.0.0.1:{port}/healthz"),
        timeout=90, what=f"the site on {port}", processes=process, interval=0.3,
    )  # fmt: skip
    return process, port


def seed_players(count: int, rng: random.Random, *, sessions: bool = True) -> list[tuple[int, str]]:
    """Users with ratings and signed-in sessions: [(user id, session cookie)]; without
    `sessions` the cookies are empty (a benchmark that opens no socket needs none)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from ratings.models import Rating

    prefix = f"pb{secrets.token_hex(3)}"
    users = User.objects.bulk_create(
        User(username=f"{prefix}{n}", email=f"{prefix}{n}@bench.invalid", password="!")
        for n in range(count)
    )
    Rating.objects.bulk_create(
        Rating(user=user, rating=value, peak=value)
        for user in users
        for value in [round(min(2600.0, max(600.0, rng.gauss(1500, 250))), 2)]
    )
    if not sessions:
        return [(user.pk, "") for user in users]
    players = []
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        players.append((user.pk, f"sessionid={session.session_key}"))
    return players


def database_counters() -> dict[str, int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(STATS)} FROM pg_stat_database WHERE datname = current_database()"
        )
        return dict(zip(STATS, cursor.fetchone(), strict=True))


async def player(port: int, cookie: str, plan: dict, results: list, rng: random.Random) -> None:
    from websockets.asyncio.client import connect

    outcome = {"joined": None, "paired": None, "left": False, "offers": 0}
    results.append(outcome)
    await asyncio.sleep(plan["connect_at"])
    try:
        async with connect(
            f"ws://127.0.0.1:{port}/ws/lobby/", origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": cookie}, open_timeout=60, max_queue=None,
        ) as socket:  # fmt: skip
            await asyncio.sleep(max(0.0, plan["join_at"] - plan["connect_at"]))
            outcome["joined"] = time.monotonic()
            await socket.send(json.dumps({"type": "pool_join", "pool": plan["pool"]}))
            give_up = outcome["joined"] + plan["patience"]
            while (left := give_up - time.monotonic()) > 0:
                try:
                    message = json.loads(await asyncio.wait_for(socket.recv(), left))
                except TimeoutError:
                    break
                if message["type"] == "pool_matched":
                    outcome["paired"] = time.monotonic()
                    return
                if message["type"] == "pool_proposal":
                    outcome["offers"] += 1
                    await asyncio.sleep(rng.uniform(0.5, 3.0))
                    answer = "pool_decline" if rng.random() < plan["decline"] else "pool_accept"
                    await socket.send(json.dumps({"type": answer, "proposal": message["proposal"]}))
                if message["type"] == "pool_left":
                    outcome["left"] = True
                    return
            await socket.send(json.dumps({"type": "pool_leave"}))
            outcome["left"] = True
    except Exception as error:  # noqa: BLE001 - counted, the others go on
        outcome["error"] = repr(error)[:120]


async def crowd(ports: list[int], players, arguments, rng: random.Random) -> list[dict]:
    from pairing.pools import TILES

    # The first tiles are the popular ones (a player mostly clicks the first row).
    weights = [8, 10, 4, 3, 5, 2, 1, 1][: len(TILES)]
    results: list[dict] = []
    tasks = []
    for index, (_user_id, cookie) in enumerate(players):
        join_at = rng.uniform(0, arguments.spread)
        leaver = rng.random() < arguments.leavers
        plan = {
            "connect_at": max(0.0, join_at - 2.0),
            "join_at": join_at,
            "pool": rng.choices(TILES, weights)[0].key,
            "patience": rng.uniform(1, 10) if leaver else arguments.patience,
            "decline": arguments.decline,
        }
        port = ports[index % len(ports)]
        tasks.append(player(port, cookie, plan, results, random.Random(rng.random())))
    await asyncio.gather(*tasks)
    return results


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(fraction * len(values)))]


def run(arguments: argparse.Namespace) -> int:
    rng = random.Random(arguments.seed)
    print(f"seeding {arguments.players} players …", flush=True)
    players = seed_players(arguments.players, rng)
    sites = [start_site(beat=True), start_site(beat=False)]
    try:
        from django.utils import timezone

        before, started, started_at = database_counters(), time.monotonic(), timezone.now()
        results = asyncio.run(crowd([port for _, port in sites], players, arguments, rng))
        elapsed = time.monotonic() - started
        after = database_counters()
    finally:
        processes.stop([process for process, _port in sites], grace=30)
    waits = [r["paired"] - r["joined"] for r in results if r["paired"] is not None]
    errors = [r["error"] for r in results if "error" in r]
    from pairing.models import PairedWait

    print(f"players {len(results)} over {elapsed:.1f} s; paired {len(waits)}, "
          f"left or gave up {sum(r['left'] for r in results)}, offers seen "
          f"{sum(r['offers'] for r in results)}, errors {len(errors)}")  # fmt: skip
    print(f"join → paired: p50 {percentile(waits, 0.5):.3f} s, p90 {percentile(waits, 0.9):.3f} s, "
          f"p99 {percentile(waits, 0.99):.3f} s, max {max(waits, default=float('nan')):.3f} s")  # fmt: skip
    recorded = PairedWait.objects.filter(paired_at__gte=started_at).count()
    print(f"paired waits recorded in PostgreSQL during the run: {recorded}")
    print("database over the run (pg_stat_database):")
    for name in STATS:
        delta = after[name] - before[name]
        print(f"  {name:14} {delta:>12,}  ({delta / elapsed:,.0f}/s)")
    for error in sorted(set(errors))[:5]:
        print("  error:", error)
    return 0


if __name__ == "__main__":
    sys.exit(main())
