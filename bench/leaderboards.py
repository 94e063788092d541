"""Leaderboard and profile pages at scale: seed 100,000 players and 1,000,000 rating changes in
bulk, then time every board and a profile with 5,000 matches (goal p95 < 50 ms).

    make bench-boards BENCH_ARGS="--players 100000 --changes 1000000"

Uses throwaway embedded servers, or the database DATABASE_URL names (a scratch one: it migrates
it and adds its rows there). The seed is SQL run inside PostgreSQL (INSERT ... SELECT over
generate_series), so it takes seconds, not the hours the services would. Pages are requested
through Django's test client in this process (the whole view: middleware, session, selectors,
template), `--requests` times each; production settings when the environment gives them (see the
docs/benchmarks.md "Benchmarks"). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.database import prepare


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--hero-matches", type=int, default=5_000)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument(
        "--reuse", action="store_true", help="time the rows an earlier run seeded in this database"
    )
    arguments = parser.parse_args()
    from config.embedded import EmbeddedServices

    with EmbeddedServices(None):
        prepare()
        return measure(arguments)


def table(model) -> str:
    return model._meta.db_table


SEED_USERS = """
INSERT INTO {user} (password, is_superuser, username, first_name, last_name, email, is_staff,
                    is_active, date_joined, auto_roll, is_bot, language)
SELECT '!', false, %(prefix)s || g, '', '', %(prefix)s || g || '@bench.invalid', false,
       g %% 500 <> 0, now() - interval '400 days', false, false, ''
FROM generate_series(1, %(players)s) AS g
"""
# Two rating changes per match; the hero (the first player) is the creator of every n-th match;
# players are spread by PostgreSQL's own integer hash (deterministic).
SEED_MATCHES = """
INSERT INTO {match} (creator_id, opponent_id, private, invite_token, rule_set_name, six_block,
    head_exception, opening, undo_allowed, length, turn_seconds, reserve_seconds, rated, status,
    score_creator, score_opponent, timeouts_creator, timeouts_opponent, reserve_ms_creator,
    reserve_ms_opponent, winner_id, end_reason, rematch_declined, version, created_at,
    started_at, finished_at, last_activity_at)
SELECT c, o, false, %(prefix)s || g, CASE WHEN g %% 3 = 0 THEN 'tournament' ELSE 'traditional' END,
    'end_of_turn', 'classic', 'reroll', true, (ARRAY[1,3,5,7])[1 + g %% 4], 60, 0, true, 'finished',
    1, 0, g %% 2, 0, 0, 0, CASE WHEN g %% 2 = 0 THEN c ELSE o END, 'finished', false, 1, t, t, t, t
FROM (
    SELECT g,
        CASE WHEN g %% %(hero_every)s = 0 THEN %(first)s
             ELSE %(first)s + 1 + (abs(hashint8(g)) %% (%(players)s - 1)) END AS c,
        %(first)s + 1 + (abs(hashint8(g + 7)) %% (%(players)s - 1)) AS o,
        now() - (g::float / %(matches)s) * interval '365 days' AS t
    FROM generate_series(1, %(matches)s) AS g
) AS s WHERE c <> o
"""
SEED_CHANGES = """
INSERT INTO {change} (user_id, match_id, opponent_id, opponent_rating, before, after, delta,
                      length, won, created_at)
SELECT CASE WHEN side = 0 THEN m.creator_id ELSE m.opponent_id END,
       m.id,
       CASE WHEN side = 0 THEN m.opponent_id ELSE m.creator_id END,
       1500, 1500, 1500 + d, d, m.length, d > 0, m.finished_at
FROM {match} m, generate_series(0, 1) AS side,
     LATERAL (SELECT CASE WHEN (side = 0) = (m.winner_id = m.creator_id)
                          THEN 8.5::numeric ELSE -8.5::numeric END AS d) AS x
WHERE m.invite_token LIKE %(prefix)s || '%%'
"""
SEED_RATINGS = """
INSERT INTO {rating} (user_id, rating, peak, experience, matches, wins, last_rated_at, updated_at)
SELECT u.id, 1500 + coalesce(sum(c.delta), 0) * 3, 1500 + greatest(coalesce(sum(c.delta), 0), 0) * 3,
       coalesce(sum(c.length), 0), count(c.id), count(c.id) FILTER (WHERE c.won),
       max(c.created_at), now()
FROM {user} u JOIN {change} c ON c.user_id = u.id
WHERE u.username LIKE %(prefix)s || '%%'
GROUP BY u.id
"""
SEED_PERIODS = """
INSERT INTO {periods} (user_id, period, starts_on, wins, matches)
SELECT c.user_id, p.period, p.starts_on, count(*) FILTER (WHERE c.won), count(*)
FROM {change} c, (VALUES ('week', %(week)s::date, %(week_start)s::timestamptz),
                         ('month', %(month)s::date, %(month_start)s::timestamptz))
     AS p(period, starts_on, since)
WHERE c.created_at >= p.since AND c.match_id IN (
    SELECT id FROM {match} WHERE invite_token LIKE %(prefix)s || '%%')
GROUP BY c.user_id, p.period, p.starts_on
"""


def seed(arguments: argparse.Namespace, prefix: str) -> int:
    """Returns the hero's user id."""
    import datetime

    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import User
    from games.models import Match
    from ratings.models import PeriodWins, Rating, RatingChange
    from ratings.services import period_starts

    names = {"user": table(User), "match": table(Match), "change": table(RatingChange),
             "rating": table(Rating), "periods": table(PeriodWins)}  # fmt: skip
    starts = period_starts(timezone.now())

    def local_midnight(day):
        return timezone.make_aware(datetime.datetime.combine(day, datetime.time()))

    matches = arguments.changes // 2
    with transaction.atomic(), connection.cursor() as cursor:
        steps = [
            ("players", SEED_USERS, {"players": arguments.players}),
            ("matches", SEED_MATCHES, None),
            ("rating changes", SEED_CHANGES, {}),
            ("ratings", SEED_RATINGS, {}),
            ("week and month counters", SEED_PERIODS, {
                "week": starts["week"], "month": starts["month"],
                "week_start": local_midnight(starts["week"]),
                "month_start": local_midnight(starts["month"]),
            }),
        ]  # fmt: skip
        first = None
        for label, sql, parameters in steps:
            began = time.perf_counter()
            if parameters is None:
                cursor.execute(
                    f"SELECT min(id) FROM {names['user']} WHERE username LIKE %s", [prefix + "%"]
                )
                first = cursor.fetchone()[0]
                parameters = {"first": first, "matches": matches, "players": arguments.players,
                              "hero_every": max(1, matches // arguments.hero_matches)}  # fmt: skip
            cursor.execute(sql.format(**names), {"prefix": prefix, **parameters})
            print(f"seeded {cursor.rowcount:>9,} {label} in {time.perf_counter() - began:.1f} s")
    began = time.perf_counter()
    with connection.cursor() as cursor:
        for name in names.values():
            cursor.execute(f"ANALYZE {name}")
    print(f"analyzed in {time.perf_counter() - began:.1f} s")
    return first


def measure(arguments: argparse.Namespace) -> int:
    import secrets

    import django

    django.setup()
    from django.conf import settings
    from django.db.models import Q
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games.models import Match

    if arguments.reuse:
        last = User.objects.filter(email__endswith="@bench.invalid").latest("pk").username
        prefix = last[: last.rindex("_") + 1]
        hero = User.objects.filter(username__startswith=prefix).earliest("pk")
    else:
        hero = User.objects.get(pk=seed(arguments, f"b{secrets.token_hex(3)}_"))
        prefix = hero.username[: hero.username.rindex("_") + 1]
    hero_matches = Match.objects.filter(Q(creator=hero) | Q(opponent=hero)).count()
    middle = User.objects.filter(username=f"{prefix}{arguments.players // 2}").get()
    host = (settings.ALLOWED_HOSTS or ["localhost"])[0].lstrip(".").replace("*", "localhost")
    anonymous, signed_in = Client(HTTP_HOST=host), Client(HTTP_HOST=host)
    signed_in.force_login(middle)
    secure = not settings.DEBUG
    pages = [
        ("rules page (baseline: no query)", anonymous, "/rules/", {}),
        ("rating board, page 1", anonymous, "/leaderboard/", {}),
        ("rating board, page 200", anonymous, "/leaderboard/", {"page": 200}),
        ("rating board, signed in (own row)", signed_in, "/leaderboard/", {}),
        ("rating board, search", anonymous, "/leaderboard/", {"player": f"{prefix}4242"}),
        ("wins board", anonymous, "/leaderboard/wins/", {}),
        ("wins board, signed in", signed_in, "/leaderboard/wins/", {}),
        ("week board", anonymous, "/leaderboard/week/", {}),
        ("month board", signed_in, "/leaderboard/month/", {}),
        (f"profile, {hero_matches:,} matches", signed_in, f"/@/{hero.username}", {}),
    ]
    print(f"\nDEBUG={settings.DEBUG}; {arguments.requests} requests per page; times in ms")
    print(f"{'page':<40} {'p50':>7} {'p95':>7} {'max':>7} {'queries':>8}")
    for label, client, path, query in pages:
        client.get(path, query, secure=secure)  # warm the caches once
        times = []
        from django.db import connection

        for _ in range(arguments.requests):
            with CaptureQueriesContext(connection) as queries:
                began = time.perf_counter()
                response = client.get(path, query, secure=secure)
                times.append((time.perf_counter() - began) * 1000)
            if response.status_code != 200:
                print(f"{label}: HTTP {response.status_code}")
                return 1
            if path.startswith("/leaderboard/") and b'<tr id="row-' not in response.content:
                # An empty board is fast and proves nothing (e.g. a cache another run filled).
                print(f"{label}: no rows on the page")
                return 1
        times.sort()
        p95 = times[max(0, int(len(times) * 0.95) - 1)]
        print(f"{label:<40} {statistics.median(times):>7.1f} {p95:>7.1f} {times[-1]:>7.1f} "
              f"{len(queries):>8}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
