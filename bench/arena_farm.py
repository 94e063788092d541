"""What a second account feeds an arena player in a given time: the farming a review found
(docs/rules.md "Arena tournaments", items 2 and 3 are the rules against it).

    .venv/bin/python -m bench.arena_farm --seconds 30            # casual, then rated

Four players join a running arena: the farmer (1500) and their second account (1510), and two
others (1800, 1810) who are paired with each other and stay busy in a long match. Then, for
`--seconds`, the second account resigns every arena match it is in the moment it is paired, through
the same service a page's resign reaches; the end reaches tournaments through games' hook, which
scores it and pairs the free players again at once, and once a second the beat's sweep is run as
the site's beat would (`tournaments_sweep`). Printed: the farmer's wins, points and rating, the
matches begun, how many of them paired the same two players, and the CPU of this process (every
service runs in it) and of PostgreSQL's server process.

Throwaway embedded servers unless DATABASE_URL / REDIS_URL name others (a scratch database).
It uses only what every version of the arena has (the join, resign and sweep services, the
players' rows), so the same file measures an older checkout. Figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import timedelta

from bench.database import run_on_database


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--only", choices=("casual", "rated"), help="one kind of arena")
    arguments = parser.parse_args()
    return run_on_database(run, arguments)


def run(arguments) -> int:
    kinds = [arguments.only] if arguments.only else ["casual", "rated"]
    for number, kind in enumerate(kinds):
        farm(kind == "rated", arguments.seconds, suffix=f"{number}{int(time.time()) % 100000}")
    return 0


def farm(rated: bool, seconds: float, suffix: str) -> None:
    import psutil
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from games import services as game_services
    from games.models import Match, MatchStatus
    from ratings.models import Rating
    from tournaments.models import Pairing, Player, Status, Tournament
    from tournaments.services.clock import tournaments_sweep
    from tournaments.services.players import tournament_join

    users = {}
    for name, rating in (("farmer", 1500), ("second", 1510), ("busy1", 1800), ("busy2", 1810)):
        username = f"{name}{suffix}"
        user = User.objects.create_user(
            username=username, email=f"{username}@example.com", password="x" * 20
        )
        Rating.objects.create(user=user, rating=rating, peak=rating)
        users[name] = user
    now = timezone.now()
    tournament = Tournament.objects.create(
        name=f"Farm {suffix}", rated=rated, status=Status.RUNNING, starts_at=now,
        started_at=now, ends_at=now + timedelta(minutes=60), minutes=60,
    )  # fmt: skip
    for user in users.values():
        tournament_join(user=user, tournament_id=tournament.pk)
    farmer, second = users["farmer"], users["second"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = psutil.Process(cursor.fetchone()[0])
    database_cpu, cpu, started = sum(backend.cpu_times()[:2]), time.process_time(), time.monotonic()
    next_sweep = started + 1.0
    resigned = 0
    while (now_monotonic := time.monotonic()) - started < seconds:
        playing = Player.objects.filter(tournament=tournament, user=second).values_list(
            "playing_id", flat=True
        )[0]
        if playing is not None and Match.objects.filter(pk=playing, status=MatchStatus.ACTIVE):
            game_services.match_resign(user=second, match_id=playing)
            resigned += 1
        else:
            time.sleep(0.02)
        if now_monotonic >= next_sweep:
            tournaments_sweep()
            next_sweep += 1.0
    wall = time.monotonic() - started
    cpu = time.process_time() - cpu
    database_cpu = sum(backend.cpu_times()[:2]) - database_cpu
    row = Player.objects.get(tournament=tournament, user=farmer)
    rating = Rating.objects.get(user=farmer).rating
    pairings = list(Pairing.objects.filter(tournament=tournament).values_list("first", "second"))
    same = sum(1 for pair in pairings if set(pair) == {farmer.pk, second.pk})
    print(
        f"{'rated' if rated else 'casual'} arena, {wall:.1f} s: the farmer has {row.wins} wins, "
        f"{row.points} points, rating 1500 -> {float(rating):.0f}; {resigned} resignations, "
        f"{len(pairings)} matches begun ({same} farmer-partner); {cpu:.1f} s CPU here, "
        f"{database_cpu:.1f} s PostgreSQL CPU"
    )


if __name__ == "__main__":
    sys.exit(main())
