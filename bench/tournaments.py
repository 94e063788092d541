"""One arena of 1,000 players: the pairing wave, a match's end, and what the standings cost per
second, with PostgreSQL's CPU beside the wall time.

    .venv/bin/python -m bench.tournaments --players 1000 --rounds 5

- **pairing wave**: every player free at once (the start): one `tournament_pair`, which locks the
  tournament and the free players, pairs them (tournaments/arena.py) and starts each match through
  games' start path. Then `--rounds` times every match ends (a resignation, through the service
  and games' `match_ended` hook, which scores it and pairs its players again at once: the steady
  state, a small wave per end).
- **standings per second**: what one sweep's publication costs (tournaments/live.py): one read of
  the standings per process (`standings`), then each of `--sockets` sockets cutting its viewer's
  page and own row and serialising it (`standings_page` + JSON), as tournaments/socket.py does.
- **PostgreSQL CPU**: the CPU time of this connection's own server process (every statement of
  the benchmark runs on it), read with psutil before and after.

Throwaway embedded servers unless DATABASE_URL / REDIS_URL name others (a scratch database: it
migrates it and adds its rows there), or `--keep DIR`: embedded servers whose data stay in DIR, so
a second run skips a fresh database's migrations (each run seeds its own players and arena).
`--wave-only` stops after the pairing wave; `--profile FILE` writes the wave's cProfile stats
there (that run's figures include the profiler's cost: not the benchmark's).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

from bench.database import run_on_database
from bench.pairing import seed_players
from config.wire import json_text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sockets", type=int, default=1000, help="sockets cutting pages")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--keep", type=Path, help="keep the embedded servers' data here")
    parser.add_argument("--wave-only", action="store_true", help="stop after the pairing wave")
    parser.add_argument("--profile", type=Path, help="write the wave's cProfile stats here")
    arguments = parser.parse_args()
    return run_on_database(run, arguments, keep=arguments.keep)


class Meter:
    """Wall time, this process's CPU and the PostgreSQL server process's CPU of a block."""

    def __init__(self) -> None:
        import psutil
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.backend = psutil.Process(cursor.fetchone()[0])

    def __enter__(self) -> Meter:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        self.database = sum(self.backend.cpu_times()[:2])
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu
        self.database = sum(self.backend.cpu_times()[:2]) - self.database

    def line(self) -> str:
        return f"{self.wall * 1000:8.1f} ms wall, {self.cpu * 1000:7.1f} ms CPU here, " \
               f"{self.database * 1000:7.1f} ms PostgreSQL CPU"  # fmt: skip


def seed(count: int, rng: random.Random):
    from django.utils import timezone

    from accounts.models import User
    from tournaments.models import Player, Status, Tournament

    # Ratings spread as bench/pairing.py spreads them (no sessions: no socket opens here).
    seeded = seed_players(count, rng, sessions=False)
    users = list(User.objects.filter(pk__in=[pk for pk, _cookie in seeded]))
    now = timezone.now()
    tournament = Tournament.objects.create(
        name="Benchmark arena", starts_at=now, ends_at=now + timedelta(hours=1), minutes=60,
        status=Status.RUNNING, started_at=now, max_players=count,
    )  # fmt: skip
    Player.objects.bulk_create(Player(tournament=tournament, user=user) for user in users)
    return tournament, users


def run(arguments: argparse.Namespace) -> int:
    from games.services import match_resign
    from tournaments.models import Player
    from tournaments.selectors import standings, standings_page
    from tournaments.services.pairing import tournament_pair

    rng = random.Random(arguments.seed)
    print(f"seeding {arguments.players} players in one arena …", flush=True)
    tournament, users = seed(arguments.players, rng)
    by_id = {user.pk: user for user in users}
    meter = Meter()
    waves, ends = [], []  # the start's wave; each end's (wall, PostgreSQL CPU)
    profiler = cProfile.Profile() if arguments.profile else None
    with meter:
        if profiler is not None:
            profiler.enable()
        made = tournament_pair(tournament_id=tournament.pk)
        if profiler is not None:
            profiler.disable()
    waves.append((made, meter.line(), meter.wall))
    if profiler is not None:
        profiler.dump_stats(arguments.profile)
    if arguments.wave_only:
        arguments.rounds = 0
    for _round in range(arguments.rounds):
        playing = list(
            Player.objects.filter(tournament=tournament, playing__isnull=False).values_list(
                "user_id", "playing_id"
            )
        )
        seen = set()
        for user_id, match_id in playing:
            if match_id in seen:
                continue
            seen.add(match_id)
            with meter:  # the end, its scoring and the pairing of whoever is free (the hook)
                match_resign(user=by_id[user_id], match_id=match_id)
            ends.append((meter.wall, meter.database))
    print(f"pairing wave ({arguments.players} players, every one free):")
    for made, line, _wall in waves:
        print(f"  {made:4} matches started: {line}")
    if arguments.wave_only:
        return 0
    walls = [wall for wall, _db in ends]
    print(f"a match's end (resign → score → pair again), {len(ends)} ends: p50 "
          f"{statistics.median(walls) * 1000:.1f} ms, max {max(walls) * 1000:.1f} ms wall; "
          f"PostgreSQL CPU p50 {statistics.median(db for _w, db in ends) * 1000:.1f} ms")  # fmt: skip
    reads = []
    for _ in range(10):
        with meter:
            rows = standings(tournament.pk)
        reads.append(meter.line())
    with meter:
        for viewer in rng.sample(users, min(arguments.sockets, len(users))):
            json_text({"type": "standings", **standings_page(rows, page=1, user_id=viewer.pk)})
    print(f"standings per second, one process (one read, {arguments.sockets} sockets):")
    print(f"  read of all {len(rows)} rows (10 reads, last): {reads[-1]}")
    print(f"  {arguments.sockets} pages + own rows cut and serialised: {meter.line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
