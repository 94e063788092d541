"""A profile's cost does not grow with the player's match count: the match list is
keyset-paged (games.match_list.player_match_page), the record is read from counters
(ratings/counts.py), the chart picks its points by number. Checked by what PostgreSQL reads: each
statement the page ran is run again under EXPLAIN ANALYZE (the tables analyzed, sequential scans
off, as the planner behaves on big tables; with the plan for its values and with the generic plan
a prepared statement ends up with) and the rows its scans read are summed."""

from __future__ import annotations

import datetime
import json
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.match_list import MATCH_LIST_SIZE, MatchKey, player_match_page
from games.models import Match
from ratings import chart
from ratings.models import Rating, RatingChange
from tests.factories import make_user

pytestmark = pytest.mark.django_db


# The rule columns of every seeded match: a casual one-point match on the default clock.
CASUAL_ONE_POINTER = {
    "six_block": "end_of_turn",
    "head_exception": "classic",
    "opening": "reroll",
    "undo_allowed": True,
    "length": 1,
    "turn_seconds": 60,
    "rated": False,
}


def bulk_matches(player, others, count: int, *, start, same_time: int = 1, **fields) -> list:
    """`count` finished matches of `player`, creator and opponent in turn against `others` in
    turn, `same_time` of them at each instant (a minute apart), written in one statement."""
    rows = [
        Match(
            creator=player if index % 2 == 0 else others[index % len(others)],
            opponent=others[index % len(others)] if index % 2 == 0 else player,
            **CASUAL_ONE_POINTER,
            status="finished",
            winner=player,
            end_reason="resigned",
            created_at=start + datetime.timedelta(minutes=index // same_time),
            finished_at=start,
            **fields,
        )  # fmt: skip
        for index in range(count)
    ]
    return Match.objects.bulk_create(rows, batch_size=1000)


def crowd(count: int) -> None:
    """Other players, two matches each, finished, cancelled or aborted: the planner's statistics
    then show what the site's do, players with few matches (the average PostgreSQL plans a
    prepared statement for) beside the one with thousands."""
    from accounts.models import User

    players = User.objects.bulk_create(
        User(username=f"crowd{index}", email=f"crowd{index}@example.com", password="!")
        for index in range(count)
    )
    start = timezone.now() - datetime.timedelta(days=60)
    for status in ("finished", "cancelled", "aborted"):
        Match.objects.bulk_create(
            (
                Match(
                    creator=players[index],
                    opponent=players[index - 1],
                    **CASUAL_ONE_POINTER,
                    status=status,
                    winner=players[index] if status == "finished" else None,
                    end_reason={"finished": "resigned", "aborted": "aborted"}.get(status, ""),
                    created_at=start,
                    finished_at=start,
                )  # fmt: skip
                for index in range(count)
            ),
            batch_size=1000,
        )


def statements(client, url: str, query: dict):
    """The page's response, and every statement it ran with its parameters."""
    ran = []

    def collect(execute, sql, params, many, context):
        ran.append((sql, params or ()))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(collect):
        response = client.get(url, query)
    assert response.status_code == 200
    return response.content.decode(), ran


def numbered(sql: str, params) -> tuple[str, list]:
    """Django's %s and %(name)s placeholders as PostgreSQL's $1, $2, ... (%% is a literal %),
    and the values in that order."""
    values: list = []
    names: dict[str, int] = {}
    positional = iter(params if not isinstance(params, dict) else ())

    def number(found) -> str:
        if found[0] == "%%":
            return "%"
        if found[1] is None:
            values.append(next(positional))
            return f"${len(values)}"
        if found[1] not in names:
            values.append(params[found[1]])
            names[found[1]] = len(values)
        return f"${names[found[1]]}"

    return re.sub(r"%%|%\((\w+)\)s|%s", number, sql), values


def rows_read(ran, *, generic: bool) -> tuple[dict[str, int], list[str]]:
    """Per table, the rows the scans of these statements read (returned or filtered out), each
    statement run again as a prepared one under EXPLAIN ANALYZE: with the plan for its values,
    or (`generic`) with the plan PostgreSQL keeps for any values once a statement has been
    executed a few times on a connection, as the site's are (config/settings/). With them,
    each statement and its plan's shape: which plan PostgreSQL chose is what a failure needs
    to show."""
    import psycopg.sql

    read: dict[str, int] = {}
    plans: list[str] = []

    def walk(node, depth: int = 0) -> list[str]:
        shape = [f"{'  ' * depth}{node['Node Type']} {node.get('Index Name', '')}".rstrip()]
        if "Relation Name" in node:
            examined = node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
            examined += node.get("Rows Removed by Index Recheck", 0)
            name = node["Relation Name"]
            read[name] = read.get(name, 0) + examined * node["Actual Loops"]
            shape[0] += f" on {name}: {examined * node['Actual Loops']} rows read"
        for child in node.get("Plans", []):
            shape += walk(child, depth + 1)
        return shape

    with connection.cursor() as cursor:
        # The planner's statistics of every table, this test's rows in them. The page joins the
        # users too: with only the matches and changes analysed, the users' statistics were
        # whatever an earlier test of the run had left (an autovacuum of a table since
        # truncated), and in full runs only the plan then read every match.
        cursor.execute("ANALYZE")
        cursor.execute("SET LOCAL enable_seqscan = off")
        mode = "force_generic_plan" if generic else "force_custom_plan"
        cursor.execute(f"SET LOCAL plan_cache_mode = {mode}")
        for sql, params in ran:
            if not sql.lstrip().upper().startswith(("SELECT", "(", "WITH")):  # unions too
                continue
            prepared, params = numbered(sql, params)
            cursor.execute(f"PREPARE probe AS {prepared}")
            values = ", ".join(
                psycopg.sql.Literal(value).as_string(connection.connection) for value in params
            )
            explain = "EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE probe"
            cursor.execute(f"{explain} ({values})" if params else explain)
            plan = cursor.fetchone()[0]
            shape = walk((json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"])
            plans.append(sql + "\n" + "\n".join(shape))
            cursor.execute("DEALLOCATE probe")
        cursor.execute("SET LOCAL enable_seqscan = on")
        cursor.execute("SET LOCAL plan_cache_mode = auto")
    return read, plans


def listed_ids(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-match-id="(\d+)"', html)]


def link(html: str, name: str) -> str | None:
    found = re.search(rf'id="{name}-matches" href="\?{name}=([^"]+)"', html)
    return found.group(1) if found else None


def test_a_profile_reads_a_page_of_rows_however_many_matches_and_changes(client):
    """Fails on the OFFSET/COUNT list, the per-view aggregates and the window-function chart:
    each read every match or change of the player."""
    anna, boris = make_user("big_anna", password=None), make_user("big_boris", password=None)
    crowd(2000)
    changes = 10 * chart.MAX_POINTS
    start = timezone.now() - datetime.timedelta(days=30)
    made = bulk_matches(anna, [boris], changes, start=start)
    RatingChange.objects.bulk_create(
        RatingChange(
            user=anna,
            match=made[index],
            opponent=boris,
            before=Decimal(1500),
            after=Decimal(1500 + index % 7),
            delta=Decimal(index % 7),
            length=1,
            won=True,
            created_at=start + datetime.timedelta(minutes=index),
            number=index + 1,
        )  # fmt: skip
        for index in range(changes)
    )
    Rating.objects.create(user=anna, rating=Decimal(1503), history_length=changes)
    client.force_login(boris)  # someone else's view: with the head-to-head line
    url = reverse("profile", args=[anna.username])
    cache.clear()  # the chart drawn by this request
    html, first = statements(client, url, {})
    assert 'id="rating-chart"' in html and 'id="head-to-head"' in html
    deep_html, deep = statements(client, url, {"older": link_key(made[40])})
    assert listed_ids(deep_html) == [match.pk for match in made[39::-1][:MATCH_LIST_SIZE]]
    newer_html, newer = statements(client, url, {"newer": link_key(made[500])})
    assert listed_ids(newer_html) == [match.pk for match in made[530:500:-1]]
    for ran in (first, deep, newer):
        # The one COUNT allowed is the follower count, over follow rows (friends/selectors.py).
        assert not any(
            re.search(r"\b(COUNT|OFFSET)\b", sql, re.I) and "friends_follow" not in sql
            for sql, _ in ran
        )
        for generic in (False, True):
            read, plans = rows_read(ran, generic=generic)
            # A page and the keys either side of it from each seat; the chart's points.
            shown = f"generic plan: {generic}, rows read: {read}\n\n" + "\n\n".join(plans)
            assert read.get(Match._meta.db_table, 0) <= 4 * (MATCH_LIST_SIZE + 2), shown
            changes_read = read.get(RatingChange._meta.db_table, 0)
            assert changes_read <= chart.MAX_POINTS + 2 + MATCH_LIST_SIZE, shown


def test_the_number_of_queries_does_not_depend_on_the_number_of_matches(client):
    few, many = make_user("few_matches", password=None), make_user("many_matches", password=None)
    viewer = make_user("viewer", password=None)
    start = timezone.now() - datetime.timedelta(days=3)
    bulk_matches(few, [viewer], 3, start=start)
    made = bulk_matches(many, [viewer], 4 * MATCH_LIST_SIZE + 7, start=start)
    client.force_login(viewer)
    counts = []
    for player, query in ((few, {}), (many, {}), (many, {"older": link_key(made[100])}),
                          (many, {"newer": link_key(made[20])})):  # fmt: skip
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("profile", args=[player.username]), query).status_code == 200
        counts.append(len(queries))
    # First page: the same; a page with a Newer link checks that one exists (one query more).
    assert counts[0] == counts[1] <= counts[2] == counts[3] <= counts[0] + 1
    # Four of them are the list's transaction in the test's: a savepoint, its release and the
    # planner setting on and off (games/match_list.py); two the correspondence matches (the
    # tab's count, games/correspondence_list.py) and the correspondence rating; one the follower
    # count (friends/selectors.py); two the statistics' counters and performance chart
    # (learning/selectors.py).
    assert counts[2] <= 21


def link_key(match) -> str:
    return MatchKey(match.created_at, match.pk).text


def test_older_and_newer_links_list_every_match_exactly_once_with_equal_times(client):
    anna = make_user("anna_pages", password=None)
    others = [make_user(f"opponent{index}", password=None) for index in range(3)]
    start = timezone.now() - datetime.timedelta(days=2)
    # Seven matches at each instant, anna creator and opponent in turn: equal times span pages.
    made = bulk_matches(anna, others, 95, start=start, same_time=7)
    cancelled = bulk_matches(anna, others, 3, start=start, same_time=3)
    Match.objects.filter(pk__in=[match.pk for match in cancelled]).update(status="cancelled")
    bulk_matches(others[0], others[1:], 10, start=start)  # not anna's
    expected = [match.pk for match in sorted(made, key=lambda m: (m.created_at, m.pk))][::-1]
    url = reverse("profile", args=[anna.username])

    pages, query = [], {}
    while True:
        html = client.get(url, query).content.decode()
        pages.append(listed_ids(html))
        assert (link(html, "newer") is None) == (len(pages) == 1)
        older = link(html, "older")
        if older is None:
            break
        query = {"older": older}
    assert [len(page) for page in pages] == [30, 30, 30, 5]
    assert [pk for page in pages for pk in page] == expected
    # Back up with the Newer links: the same pages, the first one whole.
    back = []
    while (newer := link(html, "newer")) is not None:
        html = client.get(url, {"newer": newer}).content.decode()
        back.append(listed_ids(html))
    assert back == pages[-2::-1]
    # Near the top, Newer gives the newest page whole, without a Newer link.
    html = client.get(url, {"newer": link_key(made[-3])}).content.decode()
    assert listed_ids(html) == pages[0] and link(html, "newer") is None


def test_the_selector_pages_from_any_key():
    anna = make_user("anna_keys", password=None)
    boris = make_user("boris_keys", password=None)
    start = timezone.now() - datetime.timedelta(days=1)
    made = bulk_matches(anna, [boris], 40, start=start, same_time=4)
    newest_first = [match.pk for match in sorted(made, key=lambda m: (m.created_at, m.pk))][::-1]
    page = player_match_page(anna)
    assert [match.pk for match in page.matches] == newest_first[:30]
    assert page.newer is None and page.older == MatchKey(page.matches[-1].created_at,
                                                         page.matches[-1].pk)  # fmt: skip
    beyond = player_match_page(anna, older_than=MatchKey(start, 1))
    assert beyond.matches == [] and beyond.older is None and beyond.newer is not None
    assert player_match_page(boris, older_than=page.older).matches[0].pk == newest_first[30]


@pytest.mark.parametrize(
    "query",
    [
        {"older": "yesterday"},
        {"older": "12_"},
        {"newer": "1_2_3"},
        {"older": "1234567890123456789_1"},  # more digits than a key has
        {"older": "999999999999999999_1"},  # past the year 9999
        {"newer": "١٢_٣"},  # digits, but not ASCII ones
        {"older": "12\x00_3"},
        {"older": "1_2", "newer": "1_2"},
    ],
)
def test_a_bad_link_is_refused_clearly(client, query):
    anna = make_user("anna_links", password=None)
    response = client.get(reverse("profile", args=[anna.username]), query)
    assert response.status_code == 400
    assert "match list is not valid" in response.content.decode()
