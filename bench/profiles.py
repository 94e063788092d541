"""Profile pages at scale: a player with 100,000 matches (half as creator, half as opponent, every
one rated, every one analysed: a performance row each and the statistics' counters per length
and phase) and a bot with 100,000 matches against the computer; every kind of profile page is
timed: someone else's view and the player's own, signed out, the first and a deep page of the
match list, the bot's. Each page is timed warm (its caches filled by the request before) and cold
(the cache emptied before each request, as after a match of the player ended). The goal is every
page under 50 ms whatever the player's match count. Besides the wall times, "cpu" is
this process's CPU time per request (Django, the template, the test client) and "db" the time
spent waiting for PostgreSQL's answers (Django's own timing of each statement): on a busy machine
the wall time also measures the other processes.

    .venv/bin/python -m bench.profiles --matches 100000
    .venv/bin/python -m bench.profiles --matches 1000     # the same pages at 1,000: flat?

Uses throwaway embedded servers, or the database DATABASE_URL names (a scratch one: it migrates it
and adds its rows there). The seed is SQL run inside PostgreSQL (INSERT ... SELECT over
generate_series). Pages are requested through Django's test client in this process (middleware,
session, selectors, template); production settings when the environment gives them (see the
docs/benchmarks.md "Benchmarks"). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from statistics import median as statistics_median

from bench.database import prepare


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000, help="the player's and the bot's")
    parser.add_argument("--opponents", type=int, default=2_000)
    parser.add_argument("--requests", type=int, default=20, help="per page")
    parser.add_argument(
        "--explain", action="store_true", help="also the rows each page's scans read, cold"
    )
    arguments = parser.parse_args()
    from config.embedded import EmbeddedServices

    with EmbeddedServices(None):
        prepare()
        import django

        django.setup()
        return measure(arguments)


SEED_USERS = """
INSERT INTO {user} (password, is_superuser, username, first_name, last_name, email, is_staff,
                    is_active, date_joined, auto_roll, is_bot, language)
SELECT '!', false, %(prefix)s || g, '', '', %(prefix)s || g || '@bench.invalid', false, true,
       now() - interval '400 days', false, false, ''
FROM generate_series(0, %(opponents)s) AS g
"""
# The hero (player 0) sits in every match of theirs, creator of the even ones; the bot is the
# opponent in every match of its own. One opponent in ten is the viewer (player 1), the rest spread by PostgreSQL's own
# integer hash (deterministic). Matches are a minute apart, the newest now.
SEED_MATCHES = """
INSERT INTO {match} (creator_id, opponent_id, private, invite_token, rule_set_name, six_block,
    head_exception, opening, undo_allowed, length, turn_seconds, reserve_seconds, rated, status,
    score_creator, score_opponent, timeouts_creator, timeouts_opponent, reserve_ms_creator,
    reserve_ms_opponent, winner_id, end_reason, rematch_declined, version, created_at,
    started_at, finished_at, last_activity_at)
SELECT c, o, false, %(token)s || g, CASE WHEN g %% 3 = 0 THEN 'tournament' ELSE 'traditional' END,
    'end_of_turn', 'classic', 'reroll', true, (ARRAY[1,3,5,7])[1 + g %% 4], 60, 0, %(rated)s,
    'finished', 1, 0, g %% 2, g %% 3, 0, 0, CASE WHEN g %% 5 < 2 THEN c ELSE o END,
    CASE WHEN g %% 7 = 0 THEN 'abandoned' ELSE 'finished' END, false, 1, t, t, t, t
FROM (
    SELECT g, t,
        CASE WHEN %(bot)s::bigint IS NOT NULL OR g %% 2 = 1 THEN other ELSE %(player)s END AS c,
        CASE WHEN %(bot)s::bigint IS NOT NULL THEN %(bot)s::bigint WHEN g %% 2 = 1 THEN %(player)s
             ELSE other END AS o
    FROM (
        SELECT g, now() - (%(matches)s - g) * interval '1 minute' AS t,
            CASE WHEN g %% 10 = 0 THEN %(first)s + 1
                 ELSE %(first)s + 2 + abs(hashint8(g)) %% (%(opponents)s - 1) END AS other
        FROM generate_series(1, %(matches)s) AS g
    ) AS numbered
) AS seated
"""
# One game a match, a mars in one of four (won by the match's winner).
SEED_GAMES = """
INSERT INTO {game} (match_id, number, white_seat, opening_ties, start_board, board, turn_board,
    turn, phase, steps, turn_number, white_has_moved, black_has_moved, turn_started_at, result,
    winner_side, points, started_at, finished_at)
SELECT m.id, 1, m.id %% 2, '[]', b, b, b, 'w', 'over', '[]', 40, true, true, m.finished_at,
    CASE WHEN m.id %% 4 = 0 THEN 'mars' ELSE 'oin' END,
    CASE WHEN (m.winner_id = m.creator_id) = (m.id %% 2 = 0) THEN 'w' ELSE 'b' END,
    CASE WHEN m.id %% 4 = 0 THEN 2 ELSE 1 END, m.started_at, m.finished_at
FROM {match} m, (SELECT array_fill(0::smallint, ARRAY[24]) AS b) AS board
WHERE m.invite_token LIKE %(token)s || '%%'
"""
SEED_CHANGES = """
INSERT INTO {change} (user_id, match_id, opponent_id, opponent_rating, before, after, delta,
                      length, won, created_at, number)
SELECT CASE WHEN side = 0 THEN m.creator_id ELSE m.opponent_id END,
       m.id,
       CASE WHEN side = 0 THEN m.opponent_id ELSE m.creator_id END,
       1500, 1500, 1500 + d, d, m.length, d > 0, m.finished_at,
       row_number() OVER (PARTITION BY CASE WHEN side = 0 THEN m.creator_id ELSE m.opponent_id END
                          ORDER BY m.finished_at, m.id)
FROM {match} m, generate_series(0, 1) AS side,
     LATERAL (SELECT CASE WHEN (side = 0) = (m.winner_id = m.creator_id)
                          THEN 8.5::numeric ELSE -8.5::numeric END AS d) AS x
WHERE m.invite_token LIKE %(token)s || '%%' AND m.rated
"""
# learning's rows for every seeded match of a person: a performance rating per match and player
# (the profile's chart reads the latest), and the counters the hooks keep (learning/services):
# per match length, per computer level, per phase.
SEED_PERFORMANCE = """
INSERT INTO {performance} (user_id, match_id, finished_at, pr)
SELECT p.user_id, m.id, m.finished_at, 5 + abs(hashint8(m.id * 2 + p.seat)) %% 400 / 10.0
FROM {match} m
CROSS JOIN LATERAL (VALUES (m.creator_id, 0), (m.opponent_id, 1)) AS p(user_id, seat)
JOIN {user} u ON u.id = p.user_id AND NOT u.is_bot
WHERE m.invite_token LIKE %(token)s || '%%'
"""
SEED_LINES = """
INSERT INTO {line} (user_id, kind, key, played, won, mars_given, mars_taken, decisions, equity_lost)
SELECT p.user_id, 'length', m.length::text, count(*), count(*) FILTER (WHERE m.winner_id = p.user_id),
       0, 0, 0, 0
FROM {match} m
CROSS JOIN LATERAL (VALUES (m.creator_id), (m.opponent_id)) AS p(user_id)
JOIN {user} u ON u.id = p.user_id AND NOT u.is_bot
WHERE m.invite_token LIKE %(token)s || '%%'
GROUP BY p.user_id, m.length
UNION ALL
SELECT m.creator_id, 'level', b.bot_level, count(*), count(*) FILTER (WHERE m.winner_id = m.creator_id),
       0, 0, 0, 0
FROM {match} m JOIN {user} b ON b.id = m.opponent_id AND b.is_bot
WHERE m.invite_token LIKE %(token)s || '%%'
GROUP BY m.creator_id, b.bot_level
UNION ALL
SELECT p.user_id, 'phase', phase, 0, 0, 0, 0, count(*) * 12, count(*) * 0.6
FROM {match} m
CROSS JOIN LATERAL (VALUES (m.creator_id), (m.opponent_id)) AS p(user_id)
CROSS JOIN (VALUES ('opening'), ('middle'), ('bearing_off')) AS phases(phase)
JOIN {user} u ON u.id = p.user_id AND NOT u.is_bot
WHERE m.invite_token LIKE %(token)s || '%%'
GROUP BY p.user_id, phase
ON CONFLICT (user_id, kind, key) DO UPDATE SET played = {line}.played + excluded.played,
    won = {line}.won + excluded.won, decisions = {line}.decisions + excluded.decisions,
    equity_lost = {line}.equity_lost + excluded.equity_lost
"""

SEED_RATINGS = """
INSERT INTO {rating} (user_id, rating, peak, experience, matches, wins, last_rated_at, updated_at)
SELECT c.user_id, 1500 + sum(c.delta) / 100, 1500 + greatest(sum(c.delta) / 100, 0),
       sum(c.length), count(*), count(*) FILTER (WHERE c.won), max(c.created_at), now()
FROM {change} c JOIN {user} u ON u.id = c.user_id
WHERE u.username LIKE %(prefix)s || '%%'
GROUP BY c.user_id
"""


def table(model) -> str:
    return model._meta.db_table


def seed(arguments: argparse.Namespace, prefix: str) -> tuple[int, int]:
    """Returns the hero's and the bot's user ids."""
    from importlib import import_module

    from django.apps import apps
    from django.db import connection, transaction

    from accounts.models import User
    from games.models import Game, Match
    from learning.models import MatchPerformance, StatLine
    from ratings.models import Rating, RatingChange

    names = {"user": table(User), "match": table(Match), "game": table(Game),
             "change": table(RatingChange), "rating": table(Rating),
             "performance": table(MatchPerformance), "line": table(StatLine)}  # fmt: skip
    bot = User.objects.filter(is_bot=True).order_by("pk").first()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(SEED_USERS.format(**names), {"prefix": prefix, **vars(arguments)})
        first = User.objects.get(username=f"{prefix}0").pk
        for label, bot_id, rated in (("player's", None, True), ("bot's", bot.pk, False)):
            token = f"{prefix}{label[0]}"
            parameters = {"token": token, "prefix": prefix, "first": first, "player": first,
                          "bot": bot_id, "rated": rated, **vars(arguments)}  # fmt: skip
            for what, sql in (("matches", SEED_MATCHES), ("games", SEED_GAMES),
                              ("rating changes", SEED_CHANGES),
                              ("performance rows", SEED_PERFORMANCE),
                              ("statistics lines", SEED_LINES)):  # fmt: skip
                began = time.perf_counter()
                cursor.execute(sql.format(**names), parameters)
                print(f"seeded {cursor.rowcount:>9,} {label} {what} in "
                      f"{time.perf_counter() - began:.1f} s")  # fmt: skip
        cursor.execute(SEED_RATINGS.format(**names), {"prefix": prefix})
        began = time.perf_counter()
        # The profile's counts, filled as the migration that introduced them fills them.
        import_module("ratings.migrations.0006_profile_counts").fill(apps, connection)
        print(f"counted the records in {time.perf_counter() - began:.1f} s")
    began = time.perf_counter()
    with connection.cursor() as cursor:
        for name in names.values():
            cursor.execute(f"VACUUM ANALYZE {name}")
    print(f"vacuumed and analyzed in {time.perf_counter() - began:.1f} s")
    return first, bot.pk


def deep_page(player, position: int) -> dict[str, str]:
    """The query string of the match list's page after the player's position-th newest match
    (the page its Older link leads to)."""
    from django.db.models import Q

    from games.match_list import MatchKey
    from games.models import Match, MatchStatus

    listed = Match.objects.filter(Q(creator=player) | Q(opponent=player)).exclude(
        status=MatchStatus.CANCELLED
    )
    key = listed.order_by("-created_at", "-pk").values_list("created_at", "pk")[position - 1]
    return {"older": MatchKey(*key).text}


def rows_read(queries) -> dict[str, int]:
    """Per table, the rows the scans of these queries returned (EXPLAIN ANALYZE, run again)."""
    import json

    from django.db import connection

    read: dict[str, int] = {}

    def walk(node) -> None:
        if "Relation Name" in node:
            name = node["Relation Name"]
            read[name] = read.get(name, 0) + node["Actual Rows"] * node["Actual Loops"]
        for child in node.get("Plans", []):
            walk(child)

    with connection.cursor() as cursor:
        for query in queries:
            if query["sql"].lstrip().upper().startswith(("SELECT", "(", "WITH")):
                cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {query['sql']}")
                plan = cursor.fetchone()[0]
                walk((json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"])
    return read


def statistics(hero, requests: int) -> None:
    """The profile's statistics part alone (learning/selectors.py player_statistics): its
    queries and its time, which must not grow with the player's matches."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from learning.selectors import player_statistics

    times, cpu = [], []
    for _ in range(requests):
        with CaptureQueriesContext(connection) as queries:
            began, began_cpu = time.perf_counter(), time.process_time()
            shown = player_statistics(hero)
            times.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - began_cpu) * 1000)
    print(f"statistics part alone: {len(queries)} queries, p50 {statistics_median(times):.1f} ms, "
          f"cpu p50 {statistics_median(cpu):.1f} ms, {shown['performances']} chart points, "
          f"{len(shown['lengths'])} lengths, {len(shown['levels'])} levels, "
          f"{len(shown['phases'])} phases")  # fmt: skip


def measure(arguments: argparse.Namespace) -> int:
    import secrets

    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User

    prefix = f"p{secrets.token_hex(3)}_"
    hero_id, bot_id = seed(arguments, prefix)
    hero, bot = User.objects.get(pk=hero_id), User.objects.get(pk=bot_id)
    viewer = User.objects.get(username=f"{prefix}1")  # a tenth of the matches of both
    host = (settings.ALLOWED_HOSTS or ["localhost"])[0].lstrip(".").replace("*", "localhost")
    anonymous, as_viewer, as_hero = (Client(HTTP_HOST=host) for _ in range(3))
    as_viewer.force_login(viewer)
    as_hero.force_login(hero)
    secure = not settings.DEBUG
    deep = int(arguments.matches * 0.9)
    pages = [
        ("player, someone else's view", as_viewer, hero, {}),
        ("player, own view", as_hero, hero, {}),
        ("player, signed out", anonymous, hero, {}),
        (f"player, list from match {deep:,}", as_viewer, hero, deep_page(hero, deep)),
        ("bot, by a regular opponent", as_viewer, bot, {}),
        ("bot, signed out", anonymous, bot, {}),
        (f"bot, list from match {deep:,}", anonymous, bot, deep_page(bot, deep)),
    ]
    print(f"\n{arguments.matches:,} matches each; DEBUG={settings.DEBUG}; "
          f"{arguments.requests} requests per page; times in ms")  # fmt: skip
    print(f"{'page':<36} {'cache':<5} {'p50':>7} {'p95':>7} {'max':>7} {'cpu p50':>7} "
          f"{'db p50':>7} {'queries':>8}")  # fmt: skip
    explained = []
    for label, client, player, query in pages:
        path = f"/@/{player.username}"
        for cold in (True, False):
            client.get(path, query, secure=secure)  # warm the connection and the caches
            times, cpu, database = [], [], []
            for _ in range(arguments.requests):
                if cold:
                    cache.clear()  # as after a match of the player ended
                with CaptureQueriesContext(connection) as queries:
                    began, began_cpu = time.perf_counter(), time.process_time()
                    response = client.get(path, query, secure=secure)
                    times.append((time.perf_counter() - began) * 1000)
                    cpu.append((time.process_time() - began_cpu) * 1000)
                database.append(sum(float(query["time"]) for query in queries) * 1000)
                if response.status_code != 200 or b"data-match-id" not in response.content:
                    print(f"{label}: HTTP {response.status_code}, or no match listed")
                    return 1
                if label.startswith("player") and b'id="performance-chart"' not in response.content:
                    print(f"{label}: no statistics on the page")
                    return 1
            times.sort()
            p95 = times[max(0, int(len(times) * 0.95) - 1)]
            print(f"{label:<36} {'cold' if cold else 'warm':<5} {statistics_median(times):>7.1f} "
                  f"{p95:>7.1f} {times[-1]:>7.1f} {statistics_median(cpu):>7.1f} "
                  f"{statistics_median(database):>7.1f} {len(queries):>8}")  # fmt: skip
            if cold:
                explained.append((label, queries.captured_queries))
    statistics(hero, arguments.requests)
    for label, queries in explained if arguments.explain else []:
        read = sorted(rows_read(queries).items(), key=lambda item: -item[1])
        print(f"rows read, {label}: " + ", ".join(f"{name} {rows:,}" for name, rows in read))
        slowest = max(queries, key=lambda query: float(query["time"]))
        print(f"  slowest query {float(slowest['time']) * 1000:.1f} ms: {slowest['sql'][:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
