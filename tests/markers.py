"""What `make test` runs: the tests that run in this process (engine, services, selectors, forms,
views, in-process sockets). `make test-all` runs everything.

A test that starts a process (a site, a worker, nginx, a command-line tool, Node) is marked
`integration`, one that drives Chromium `browser`; `make test` deselects both. The markers
follow from where a test lives and which fixtures it uses, and a test that starts a process
anyway fails at once, naming the marker it lacks (an audit hook on process creation: the
standard library's supported way to watch it, PEP 578). Browser tests run last but one, together, so
that one Chromium serves them all (tests/conftest.py, `Chromium`); the `migrations` tests last
(`changes_schema`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
MARKERS_BY_DIRECTORY = {"e2e": "browser", "integration": "integration", "js": "integration"}
MARKERS_BY_FIXTURE = {
    "browser": "browser",
    "site": "integration",
    "sites": "integration",
    "celery_worker_process": "integration",
    "production": "integration",
}
PROCESS_MARKERS = ("integration", "browser")
# Audit events that start a process (https://docs.python.org/3/library/audit_events.html).
PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.system", "os.posix_spawn", "os.spawn", "os.exec", "os.fork"}
)

_running: list[pytest.Item] = []


def _refuse_unmarked_processes(event: str, arguments: tuple) -> None:
    if event not in PROCESS_EVENTS or not _running:
        return
    item = _running[-1]
    if not any(item.get_closest_marker(name) for name in PROCESS_MARKERS):
        # subprocess.Popen: (executable, args, cwd, env); the others name the program first.
        command = arguments[1] if event == "subprocess.Popen" else arguments[:1]
        raise RuntimeError(
            f"{item.nodeid} starts a process ({event}: {command!r}) without the `integration` "
            "marker: `make test` runs only tests that stay in its process. Mark the test "
            "(pytestmark = pytest.mark.integration) so that `make test-all` runs it."
        )


def pytest_configure(config: pytest.Config) -> None:
    sys.addaudithook(_refuse_unmarked_processes)


def uses_browser(item: pytest.Item) -> bool:
    return item.get_closest_marker("browser") is not None


def changes_schema(item: pytest.Item) -> bool:
    """A `migrations` test unapplies and reapplies migrations, which drops and re-creates the
    column domains (games/migrations/0010_column_domains.py): the same names, new type ids. A
    connection that prepared a statement before (prepare_threshold, config/settings/database.py)
    and that the test did not run on then fails it with "cached plan must not change result
    type", and psycopg forgets its prepared statements only on the connection that ran the DROP.
    So these tests run after every other test of their process."""
    return item.get_closest_marker("migrations") is not None


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]):
    """Before every other plugin's turn: the markers by directory and fixture (`-m` deselects by
    them). After: the browser tests moved to the end, and the schema-changing ones after them, a
    stable sort that keeps pytest-django's order (plain database tests before transactional ones)
    within each part."""
    for item in items:
        try:
            directory = Path(item.path).resolve().relative_to(TESTS).parts[0]
        except ValueError:
            directory = ""
        marker = MARKERS_BY_DIRECTORY.get(directory)
        if marker:
            item.add_marker(marker)
        fixtures = getattr(item, "fixturenames", ())
        for fixture in fixtures:
            if fixture in MARKERS_BY_FIXTURE:
                item.add_marker(MARKERS_BY_FIXTURE[fixture])
    result = yield
    items.sort(key=lambda item: (changes_schema(item), uses_browser(item)))
    return result


def _watching(item: pytest.Item):
    """While a test sets up and runs (not at its teardown, where a session's fixtures, e.g. the
    production topology, may end after the session's last test, whichever it is)."""
    _running.append(item)
    try:
        return (yield)
    finally:
        _running.pop()


pytest_runtest_setup = pytest.hookimpl(wrapper=True)(_watching)
pytest_runtest_call = pytest.hookimpl(wrapper=True)(_watching)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """After the last browser test of the session, Chromium goes (and with it Playwright's loop in
    this thread, which the rest of the session must not see)."""
    try:
        return (yield)
    finally:
        if uses_browser(item) and (nextitem is None or not uses_browser(nextitem)):
            from tests.chromium import stop_chromiums

            stop_chromiums()


# The production topology's tests (tests/integration/conftest.py, `production`): one topology per
# run, its tests in their order (the drills follow test_production.py on the same topology).
PRODUCTION_TESTS = "tests/integration/test_production"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """For `-n N` (xdist's `load`): every test on its own, except that one worker runs all the
    production topology's tests. Made the way xdist makes its `loadfile` and `loadgroup`
    (LoadScopeScheduling with its scope function replaced); `loadgroup` itself cannot do it with
    pytest 9 (xdist 3.8 renames test ids through an attribute pytest 9 no longer reads)."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return PRODUCTION_TESTS if nodeid.startswith(PRODUCTION_TESTS) else nodeid

    return Scheduling(config, log)


def pytest_sessionfinish(session: pytest.Session) -> None:
    from tests.chromium import stop_chromiums

    stop_chromiums()
