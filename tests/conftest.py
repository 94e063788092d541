"""Shared fixtures: real server processes (Daphne, Celery worker) on the test database.

Everything here talks to the real PostgreSQL and Redis that `make test` started (or that
DATABASE_URL / REDIS_URL name). Processes started here see only committed data, so tests that use
them take `transactional_db` (or `django_db(transaction=True)`).

`make test` runs only what runs in this process; tests that start processes or a browser carry
the `integration` / `browser` markers and run in `make test-all` (tests/markers.py checks that).
A session starts at most one site (Daphne + a Celery worker) and one Chromium (the call's tests a
second one: tests/chromium.py), each kept for every test that needs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from config import processes
from config.processes import free_port
from tests import kept_database
from tests.chromium import CHROMIUM

ROOT = Path(__file__).resolve().parent.parent
PROCESS_START_TIMEOUT = 60.0

pytest_plugins = ["tests.markers"]


def child_environment(database_name: str, **overrides: str | None) -> dict[str, str]:
    """The environment of this test run, with DATABASE_URL pointing at the test database and this
    process's Redis prefix and Celery queue (per xdist worker: config/settings/,
    per_test_worker); an override of None removes the variable (the setting's default applies)."""
    from django.conf import settings

    parts = urlsplit(os.environ["DATABASE_URL"])
    environment = dict(os.environ)
    environment["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{database_name}"))
    environment.pop("PYTEST_XDIST_WORKER", None)
    environment["REDIS_PREFIX"] = settings.REDIS_PREFIX
    environment["CELERY_QUEUE"] = settings.CELERY_TASK_DEFAULT_QUEUE
    environment.setdefault("PYTHONUNBUFFERED", "1")
    for name, value in overrides.items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    return environment


def close_database_connections() -> None:
    """Close this process's database connections and their pools (new ones open on next use)."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
        if getattr(connection, "pool", None) is not None:
            connection.close_pool()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings, request):
    """With `--reuse-db` (`make test`), the test database starts as a copy of the migrated
    template (tests/kept_database.py); returns (name, digest, copied) then, else None."""
    if not request.config.getoption("reuse_db") or request.config.getoption("create_db"):
        return None
    name, digest = kept_database.database_name(), kept_database.migrations_digest()
    return name, digest, kept_database.restore(name, digest)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, django_db_modify_db_settings):
    """pytest-django's test database (just migrated: saved as the template of the next runs that
    reuse it); at the end, end the sessions that our child processes and the psycopg pool's idle
    connections keep open, so the database can be dropped."""
    from django.conf import settings
    from django.db import connection

    kept = django_db_modify_db_settings
    if kept is not None and not kept[2]:
        close_database_connections()
        kept_database.save_template(kept[0], kept[1])
    yield
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                [settings.DATABASES["default"]["NAME"]],
            )
        # Our own pool too: its workers would open new connections for the ended ones.
        close_database_connections()


@pytest.fixture(autouse=True)
def _release_pooled_connections(request) -> Iterator[None]:
    """After a transactional test, close the connection pool (a new one opens on next use).

    Socket tests leave behind about one pooled connection each: taken by a socket's snapshot read
    on its event loop's executor thread, under asgiref's context handling, and never given back
    (a wrapper around the pool's getconn/putconn showed it). Twenty of them in one run exhausted
    the pool, and the next socket waited for a connection. The servers do not leak this way:
    bench/live_load.py runs 17,000 commands on a pool of 10 per process. Autouse fixtures are set
    up first, so this runs after pytest-django's flush."""
    yield
    marker = request.node.get_closest_marker("django_db")
    if marker is not None and marker.kwargs.get("transaction"):
        close_database_connections()


def matches_with_a_bot_to_act() -> list[int]:
    """The matches in which a bot is to act now (to roll, step or offer a rematch: the rows read
    as games/services/bot_turns.py `bot_seat` reads them after each save)."""
    from django.db.models import Q

    from games.models import Match, MatchStatus
    from games.services.bot_turns import bot_seat

    due = []
    with_a_bot = Match.objects.filter(
        Q(creator__is_bot=True) | Q(opponent__is_bot=True),
        status__in=[MatchStatus.ACTIVE, MatchStatus.FINISHED],
    ).select_related("creator", "opponent")
    for match in with_a_bot:
        bots = {
            player.pk: player.bot_level
            for player in (match.creator, match.opponent)
            if player is not None and player.is_bot
        }
        if bot_seat(match, match.games.order_by("-number").first(), bots) is not None:
            due.append(match.pk)
    return due


BOTS_AT_REST_TIMEOUT = 10.0


FLUSH_ATTEMPTS = 5


@pytest.fixture(scope="session", autouse=True)
def _flush_survives_a_deadlock() -> Iterator[None]:
    """pytest-django empties the database after a transactional test with one TRUNCATE of every
    table, which takes their locks one after another. A site process still answering the test's
    last page or socket (a read across several tables) can hold one of them and wait for
    another: PostgreSQL then ends one of the two with `deadlock detected`, and when the victim is
    the flush the next test starts on the last one's rows. The victim's transaction changed
    nothing, and the reader is gone a moment later, so the flush is simply tried again.
    `execute_sql_flush` is the backend operation the flush command runs, inside its own atomic
    block, so each attempt is a whole transaction."""
    from django.db import OperationalError
    from django.db.backends.base.operations import BaseDatabaseOperations
    from psycopg import errors

    original = BaseDatabaseOperations.execute_sql_flush

    def execute_sql_flush(self, sql_list):
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                return original(self, sql_list)
            except OperationalError as error:
                if attempt == FLUSH_ATTEMPTS or not isinstance(
                    error.__cause__, errors.DeadlockDetected
                ):
                    raise
                time.sleep(0.2 * attempt)

    BaseDatabaseOperations.execute_sql_flush = execute_sql_flush
    try:
        yield
    finally:
        BaseDatabaseOperations.execute_sql_flush = original


@pytest.fixture(autouse=True)
def _site_bots_at_rest(request) -> Iterator[None]:
    """After a transactional test that used the site, wait until no bot is to act before the
    database is flushed.

    The site's worker plays a bot's turn one task at a time, each locking the match row and then
    reading its game, players and ratings (games/services/hot_path.py `lock_and_load`), and
    writing; pytest-django's flush is one TRUNCATE of every table, locking them one after
    another. A bot still moving when the test ends (a guest's match against the computer, left
    where the test stopped looking) deadlocks with it, and PostgreSQL may end the flush. Once the
    rows show no bot to act, the last bot task has committed and scheduled none (each save
    schedules the next only while a bot is to act: games/services/follow_up.py), and the match
    waits for its person. Ending the match instead would leave the task already scheduled for
    the old version to lock and read during the flush. Requesting `transactional_db` here sets
    the flush up first, so it is torn down (flushes) after this."""
    uses_site = "site" in request.fixturenames or "sites" in request.fixturenames
    marker = request.node.get_closest_marker("django_db")
    transactional = "transactional_db" in request.fixturenames or (
        marker is not None and marker.kwargs.get("transaction")
    )
    if not (uses_site and transactional):
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    try:
        processes.wait_until(
            lambda: not matches_with_a_bot_to_act(),
            timeout=BOTS_AT_REST_TIMEOUT,
            what="the site's bots to finish acting before the database is flushed",
            interval=0.05,
        )
    except TimeoutError:
        # A bot that will not act (a site whose worker the test stopped, or a fuzzed match whose
        # bot is refused) leaves nothing to wait for: the flush goes ahead, tried again if a
        # late bot task deadlocks with it (`_flush_survives_a_deadlock`).
        pass


@pytest.fixture(autouse=True)
def _fresh_account_rate_limits() -> None:
    """Each test starts with no failed logins or sign-ups counted, as it starts with an empty
    database: the limits are a few an hour per address (config/settings/accounts.py
    ACCOUNT_RATE_LIMITS)
    and every test's client is 127.0.0.1. A test of a limit counts within itself."""
    from django.core.cache import cache

    from config.redis_client import sync_client

    redis = sync_client()
    keys = list(redis.scan_iter(match=cache.make_key("allauth:rl:*"), count=1000))
    if keys:
        redis.delete(*keys)


@pytest.fixture
def fixed_dice(settings):
    """Turn the test dice seam on (DEBUG + NARDY_TEST_DICE) and return the queueing function
    (tests/games, tests/chat, tests/moderation)."""
    from games.dice import push_test_dice

    settings.DEBUG = True
    settings.NARDY_TEST_DICE = True
    push_test_dice()  # empty the queue
    yield push_test_dice
    push_test_dice()


@pytest.fixture(scope="session")
def test_database_name(django_db_setup) -> str:
    from django.conf import settings

    return settings.DATABASES["default"]["NAME"]


def start_celery_worker(environment: dict[str, str], name: str) -> subprocess.Popen:
    from config.celery import app

    process = processes.start(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING",
            "--without-gossip", "--without-mingle", "--concurrency", "2",
            "--hostname", f"{name}@%h",
        ],
        env=environment,
    )  # fmt: skip
    processes.wait_until(
        lambda: any(name in key for reply in app.control.ping(timeout=0.5) for key in reply),
        timeout=PROCESS_START_TIMEOUT,
        what="Celery worker",
        processes=process,
    )
    return process


def start_celery_beat(environment: dict[str, str], schedule_file: Path) -> subprocess.Popen:
    """The one Celery beat (it sends the deadline sweep every DEADLINE_SWEEP_SECONDS)."""
    return processes.start(
        [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING",
         "--schedule", str(schedule_file)],
        env=environment,
    )  # fmt: skip


@dataclass
class SiteProcess:
    url: str
    port: int
    process: subprocess.Popen


def start_site(database_name: str, **environment_overrides: str | None) -> SiteProcess:
    """Start the site the way `make run` does (config.launcher run), on the test database."""
    port = free_port()
    environment = child_environment(database_name, PORT=str(port), **environment_overrides)
    process = processes.start(
        [sys.executable, "-m", "config.launcher", "run", "--no-migrate", "--no-beat"],
        env=environment,
    )
    url = f"http://127.0.0.1:{port}"
    processes.wait_until(
        lambda: processes.http_ok(f"{url}/healthz"),
        timeout=PROCESS_START_TIMEOUT,
        what="the site (Daphne + Celery worker)",
        processes=process,
    )
    return SiteProcess(url=url, port=port, process=process)


# What the session's site is started with: the test seams and limits that tests playing at a
# program's pace need. A test that needs other values asks `sites.another(...)` and says why.
# Test-only values: DEBUG is on in every test run (config/launcher.py).
SITE_SETTINGS: dict[str, str] = {
    "NARDY_TEST_DICE": "1",  # tests may queue the dice (games/dice.py; DEBUG is on in tests)
    # Programs and browsers driven by tests send far more than a person's 100 frames per 20 s
    # (lila-ws's limit; tests/integration/test_processes.py proves it on another site process).
    "SOCKET_RATE_LIMIT_MESSAGES": "1000000",
    "SNAPSHOT_REQUESTS_PER_MINUTE": "1000000",
    "CHAT_MESSAGES_PER_WINDOW": "1000000",
    "SOCKETS_PER_ADDRESS": "0",  # every test client comes from 127.0.0.1
    # ...so every guest a browser test makes ("Play now", a casual tile, "Play the computer now")
    # counts against one address: at the default 10 an hour the eleventh of a run is refused and
    # sent back home (accounts/guests.py). The limit itself is tested in-process
    # (tests/accounts/test_guests.py, tests/accounts/test_address_limits.py).
    "GUESTS_PER_ADDRESS_PER_HOUR": "1000000",
    # The computer's pause between steps: a person's pace is not what is tested.
    "BOT_STEP_SECONDS": "0.02",
    "BOT_THINK_SECONDS": "0.05",
    # The analysis worker's CPU priority (config/launcher.py): at nice 19 on a test machine
    # loaded by other work it may wait minutes for a core; its own queue is what is tested.
    "ANALYSIS_WORKER_NICE": "0",
}


class Sites:
    """The session's site, started on first use and kept to the end of the session; and at most
    one other site process beside it, for the tests that need a second process (a socket moving
    between processes) or other settings (a window, a limit): kept while tests ask for the same
    settings, replaced when they ask for others. It has a Celery queue of its own: what its Daphne
    schedules, its worker runs, with its settings (a computer given an hour to think must not be
    hurried by the site's worker, nor the site's computer slowed by its)."""

    def __init__(self, database_name: str) -> None:
        self.database_name = database_name
        self._site: SiteProcess | None = None
        self._other: tuple[dict[str, str | None], SiteProcess] | None = None

    def site(self) -> SiteProcess:
        if self._site is None or self._site.process.poll() is not None:
            self._site = start_site(self.database_name, **SITE_SETTINGS)
        return self._site

    def another(self, **overrides: str | None) -> SiteProcess:
        """Another site process, with these settings over SITE_SETTINGS (None: the setting's own
        default); the caller says why it needs one."""
        from django.conf import settings

        if self._other is not None:
            asked, running = self._other
            if asked == overrides and running.process.poll() is None:
                return running
            processes.stop(running.process)
            self._other = None
        queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-another"
        running = start_site(
            self.database_name, **{**SITE_SETTINGS, "CELERY_QUEUE": queue, **overrides}
        )
        self._other = (overrides, running)
        return running

    def stop(self) -> None:
        for running in (self._site, self._other[1] if self._other else None):
            if running is not None:
                processes.stop(running.process)
        self._site = self._other = None


@pytest.fixture(scope="session")
def sites(test_database_name) -> Iterator[Sites]:
    running = Sites(test_database_name)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def site(sites) -> SiteProcess:
    """Daphne + a Celery worker started by the launcher, as `make run` starts them (with
    SITE_SETTINGS), once per session (per xdist worker: on that worker's database and keys)."""
    return sites.site()


@pytest.fixture(scope="session")
def celery_worker_process(site) -> subprocess.Popen:
    """A real Celery worker process on the test database and this run's Redis queue: the site's
    (the launcher process that runs it). Tests that must know exactly which workers are alive
    start their own on their own queue (tests/games/test_timed_play_recovery.py)."""
    return site.process


# --- Browser (Playwright driving Debian's Chromium: tests/chromium.py) ----------------------------
@pytest.fixture
def browser() -> Iterator[object]:
    """The session's headless Chromium; every context a test opens (`browser.new_context(...)`,
    each with its viewport and locale) is closed after it, so each test starts fresh."""
    yield from CHROMIUM.contexts()
