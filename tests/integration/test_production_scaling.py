"""Past one machine, on one host (docs/scaling.md): the production topology runs two Redis servers
for the sockets' messages and a PostgreSQL streaming replica for the read-only pages
(tests/integration/conftest.py). Pages read the replica while it keeps up and the primary when it
lags, stops or after the browser's own write; one Redis shard restarted and the replica stopped
and started under live matches lose and double no acknowledged step. Each drill prints its
figures (`make prod-check` runs with -s)."""

from __future__ import annotations

import asyncio
import re
import secrets
import threading
import time
from urllib.parse import urlencode

import psycopg
import pytest
import redis

from bench.live_matches import LiveMatches
from config.embedded_replica import libpq_conninfo
from tests.integration.test_production import cookies_of, https, login_csrf, post_login
from tests.integration.test_production_drills import (
    assert_nothing_lost,
    played_on,
    print_drill,
    until,
)

pytestmark = pytest.mark.integration

FOLLOWERS = re.compile(rb'id="follower-count">(\d+) follower')


def primary(production, statement: str, parameters=()) -> object:
    conninfo = libpq_conninfo(production.environment["DATABASE_URL"])
    with psycopg.connect(conninfo, autocommit=True) as db:
        cursor = db.execute(statement, parameters)
        row = cursor.fetchone() if cursor.description else None
        return row[0] if row else None


def caught_up(production) -> None:
    """Until the replica has replayed everything the primary has written so far."""
    written = primary(production, "SELECT pg_current_wal_lsn()::text")
    deadline = time.monotonic() + 30
    while not production.replica.execute(f"SELECT pg_last_wal_replay_lsn() >= '{written}'::pg_lsn"):
        assert time.monotonic() < deadline, "the replica did not catch up in 30 s"
        time.sleep(0.05)


def new_player(production) -> tuple[str, str]:
    username, password = f"rp{secrets.token_hex(4)}", secrets.token_urlsafe(16)
    production.django_task("user", {"username": username, "password": password})
    return username, password


def signed_in(production, username: str, password: str) -> dict[str, str]:
    """The cookies of a browser that signed in (the sign-in is a write: `primary_reads` too)."""
    csrf = login_csrf(production)
    response, body = post_login(production, csrf, username, password)
    assert response.status == 302, body[:300]
    # Signing in rotates the CSRF token: the new cookie wins (its value serves as the field).
    jar = cookies_of(response)
    return {"csrftoken": csrf[0]} | {name: morsel.value for name, morsel in jar.items()}


def followers_shown(production, username: str, cookies: dict[str, str] | None = None) -> int:
    header = {"Cookie": "; ".join(f"{k}={v}" for k, v in (cookies or {}).items())}
    response, page = https(production, "GET", f"/@/{username}", headers=header)
    assert response.status == 200, page[:300]
    return int(FOLLOWERS.search(page).group(1))


class ReplayPaused:
    """The replica keeps receiving the primary's WAL but applies none of it: what it serves is
    the state of the moment of the pause."""

    def __init__(self, production) -> None:
        self.replica = production.replica

    def __enter__(self) -> float:
        self.replica.execute("SELECT pg_wal_replay_pause()")
        return time.monotonic()

    def __exit__(self, *exc_info) -> None:
        self.replica.execute("SELECT pg_wal_replay_resume()")


def test_pages_read_the_replica_and_the_player_sees_their_own_write(production):
    followed, _ = new_player(production)
    follower, password = new_player(production)
    browser = signed_in(production, follower, password)
    assert "primary_reads" in browser
    caught_up(production)
    assert followers_shown(production, followed) == 0
    with ReplayPaused(production) as paused:
        response, body = https(
            production, "POST", f"/@/{followed}/follow/",
            body=urlencode({"csrfmiddlewaretoken": browser["csrftoken"]}),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": "; ".join(f"{k}={v}" for k, v in browser.items()),
                "Origin": production.base_url, "Referer": f"{production.base_url}/@/{followed}",
            },
        )  # fmt: skip
        assert response.status == 302, body[:300]
        assert primary(production, "SELECT count(*) FROM friends_follow") >= 1
        # The follower's browser wrote: its pages read the primary, and show the write.
        assert followers_shown(production, followed, browser) == 1
        # Anyone else reads the replica, which has not applied the follow...
        assert followers_shown(production, followed) == 0
        # ...until it is more than REPLICA_MAX_LAG_SECONDS behind: then the primary.
        while followers_shown(production, followed) == 0:
            assert time.monotonic() - paused < 60, "pages kept reading a replica paused 60 s"
            time.sleep(0.05)
        fallback = time.monotonic() - paused
    print(
        f"\nREPLICA lag: pages read the primary {fallback:.2f} s after the replay paused "
        f"(bound {production.environment['REPLICA_MAX_LAG_SECONDS']} s + the 1 s probe)",
        flush=True,
    )


def reads_the_replica(production) -> bool:
    """Whether anonymous profiles come from the replica (within 20 tries and 10 s: the
    processes' probes may still hold an earlier answer for a second, longer on a loaded
    machine): a player renamed on the primary while the replica's replay is paused is still found
    under the old name there."""
    name, _ = new_player(production)
    deadline = time.monotonic() + 10
    attempt = 0
    while attempt < 20 or time.monotonic() < deadline:
        attempt += 1
        caught_up(production)
        renamed = f"{name}{attempt}"
        with ReplayPaused(production):
            primary(production, "UPDATE accounts_user SET username = %s WHERE username = %s",
                    (renamed, name))  # fmt: skip
            response, _ = https(production, "GET", f"/@/{name}")
        if response.status == 200:
            return True
        name = renamed
    return False


class PageReader:
    """Reads the read-only pages in a thread, one after the other, noting each answer's status
    and seconds, until stopped."""

    PATHS = ("/leaderboard/", "/watch/", "/", "/leaderboard/?page=2")

    def __init__(self, production) -> None:
        self.production = production
        self.answers: list[tuple[float, int, float]] = []  # (started, status, seconds)
        self.running = True
        self.thread = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        index = 0
        while self.running:
            started = time.monotonic()
            try:
                response, _ = https(self.production, "GET", self.PATHS[index % len(self.PATHS)])
                status = response.status
            except OSError:
                status = 0
            self.answers.append((started, status, time.monotonic() - started))
            index += 1

    def __enter__(self) -> PageReader:
        self.thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.running = False
        self.thread.join()

    def since(self, moment: float) -> list[tuple[float, int, float]]:
        return [answer for answer in self.answers if answer[0] >= moment]


async def test_drill_replica_stopped_and_started(production):
    assert await asyncio.to_thread(reads_the_replica, production)
    async with LiveMatches(production, matches=4, step_interval=0.4) as live:
        await played_on(live)
        with PageReader(production) as pages:
            await until(lambda: len(pages.answers) >= 4, "pages read before the stop")
            fault = time.monotonic()
            await asyncio.to_thread(production.replica.stop)
            stopped = time.monotonic()
            await until(lambda: len(pages.since(stopped)) >= 8, "pages read while it is down")
            await played_on(live)
            down = time.monotonic() - fault
            await asyncio.to_thread(production.replica.start)
            restarted = time.monotonic()
            await until(lambda: len(pages.since(restarted)) >= 8, "pages read after the start")
        recovered = await live.recovered(since=fault)
        await played_on(live)
    report = assert_nothing_lost(live)
    during = pages.since(fault)
    assert {status for _, status, _ in pages.answers} == {200}, pages.answers
    before = sorted(seconds for started, _, seconds in pages.answers if started < fault)
    after_stop = [seconds for started, _, seconds in during if started < restarted]
    assert await asyncio.to_thread(reads_the_replica, production), "reads did not come back"
    print_drill(
        "replica stopped and started",
        recovered,
        report,
        f" (replica down {down:.2f} s; {len(during)} pages read meanwhile and after, all 200; "
        f"slowest page while down {max(after_stop):.2f} s, first page after the stop "
        f"{after_stop[0]:.2f} s, median before {before[len(before) // 2]:.3f} s)",
    )


async def test_drill_one_redis_shard_restarted(production):
    """The second Redis server carries only match channels and some channel-layer groups: its
    matches resynchronise, the others do not notice, and no acknowledged step is lost."""
    shard = production.redis_shards[0]
    async with LiveMatches(production, matches=8, step_interval=0.4) as live:
        await played_on(live)
        server = redis.Redis(unix_socket_path=str(shard.socket_path))
        on_shard = [name for name in server.pubsub_channels() if b":match:" in name]
        server.close()
        assert on_shard, "no match of the eight hashed to the second server"
        fault = time.monotonic()
        await asyncio.to_thread(shard.stop)  # SIGTERM: it exits
        await asyncio.sleep(1)  # the outage itself (a second), not a wait for something
        await asyncio.to_thread(shard.start)
        shard_back = time.monotonic() - fault
        recovered = await live.recovered(since=fault)
        await played_on(live)
    report = assert_nothing_lost(live)
    print_drill(
        "one Redis shard restarted",
        recovered,
        report,
        f" ({len(on_shard)} of 8 matches on it; shard down {shard_back:.2f} s)",
    )
