"""Shared fixtures: real server processes (Daphne, Celery worker) on the test database.

Everything here talks to the real PostgreSQL and Redis that `make test` started (or that
DATABASE_URL / REDIS_URL name). Processes started here see only committed data, so tests that use
them take `transactional_db` (or `django_db(transaction=True)`).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROCESS_START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def child_environment(database_name: str, **overrides: str) -> dict[str, str]:
    """The environment of this test run, with DATABASE_URL pointing at the test database."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    environment = dict(os.environ)
    environment["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{database_name}"))
    environment.setdefault("PYTHONUNBUFFERED", "1")
    environment.update(overrides)
    return environment


def wait_for(predicate, timeout: float, what: str, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what}: the process exited with {process.returncode}")
        try:
            if predicate():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{what} did not come up within {timeout:.0f} s")


def stop_process(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database; at the end, end the sessions that our child processes and
    the psycopg pool's idle connections keep open, so the database can be dropped."""
    from django.conf import settings
    from django.db import connection

    yield
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [settings.DATABASES["default"]["NAME"]],
        )


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
        from django.db import connections

        for connection in connections.all(initialized_only=True):
            connection.close()
            if getattr(connection, "pool", None) is not None:
                connection.close_pool()


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

    process = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING",
            "--without-gossip", "--without-mingle", "--concurrency", "2",
            "--hostname", f"{name}@%h",
        ],
        cwd=ROOT, env=environment, start_new_session=True,
    )  # fmt: skip
    wait_for(
        lambda: any(name in key for reply in app.control.ping(timeout=0.5) for key in reply),
        PROCESS_START_TIMEOUT,
        "Celery worker",
        process,
    )
    return process


@pytest.fixture(scope="module")
def celery_worker_process(test_database_name) -> Iterator[subprocess.Popen]:
    """A real Celery worker process on the test database and this run's Redis queue (per module:
    the timed-play tests must know exactly which workers are alive)."""
    process = start_celery_worker(child_environment(test_database_name), f"test-{os.getpid()}")
    yield process
    stop_process(process)


def start_celery_beat(environment: dict[str, str], schedule_file: Path) -> subprocess.Popen:
    """The one Celery beat (it sends the deadline sweep every DEADLINE_SWEEP_SECONDS)."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING",
         "--schedule", str(schedule_file)],
        cwd=ROOT, env=environment, start_new_session=True,
    )  # fmt: skip


@dataclass
class SiteProcess:
    url: str
    port: int
    process: subprocess.Popen


def start_site(database_name: str, **environment_overrides: str) -> SiteProcess:
    """Start the site the way `make run` does (config.launcher run), on the test database."""
    import urllib.request

    port = free_port()
    environment = child_environment(database_name, PORT=str(port), **environment_overrides)
    process = subprocess.Popen(
        [sys.executable, "-m", "config.launcher", "run", "--no-migrate", "--no-beat"],
        cwd=ROOT, env=environment, start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    wait_for(
        lambda: urllib.request.urlopen(f"{url}/healthz", timeout=5).status == 200,
        PROCESS_START_TIMEOUT,
        "the site (Daphne + Celery worker)",
        process,
    )
    return SiteProcess(url=url, port=port, process=process)


@pytest.fixture(scope="module")
def site(test_database_name) -> Iterator[SiteProcess]:
    """Daphne + a Celery worker started by the launcher, as `make run` starts them."""
    running = start_site(test_database_name)
    yield running
    stop_process(running.process)


# --- Browser (Playwright driving Debian's Chromium) ---------------------------------------------
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
INSTALL_HINT = (
    "no Chromium found: install Debian's with `apt-get install chromium`, "
    "or Playwright's with `.venv/bin/python -m playwright install chromium`"
)


def find_chromium() -> str | None:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@pytest.fixture
def browser(monkeypatch):
    """A headless Chromium for one test (Playwright's sync API runs an event loop in this thread
    while it lives, so it must not outlive the test)."""
    executable = find_chromium()
    use_playwright_own = False
    if executable is None:
        try:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as playwright:
                use_playwright_own = os.path.exists(playwright.chromium.executable_path)
        except Exception:  # noqa: BLE001
            use_playwright_own = False
        if not use_playwright_own:
            if os.environ.get("CI") == "true":
                pytest.fail(f"CI=true and {INSTALL_HINT}")
            pytest.skip(INSTALL_HINT)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread; Django's own database
    # calls from the test thread (fixtures, flushes) are still synchronous and safe here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=None if use_playwright_own else executable,
            headless=True,
            args=CHROMIUM_FLAGS,
        )
        yield launched
        launched.close()
