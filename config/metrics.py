"""Prometheus metrics of every process, served at /metrics by config/metrics_view.py.

prometheus_client's multiprocess mode: with PROMETHEUS_MULTIPROC_DIR set (production:
deploy/systemd/nardy.tmpfiles makes /run/nardy/metrics, emptied at boot), every process — each
Daphne, the Celery worker — writes its figures to files there, and a scrape of any Daphne sums
them. Without it (`make run`, `make test`) each process keeps its own registry.

What is measured, and where:
- nardy_http_request_seconds{method,route,status}: RequestMetricsMiddleware, first in MIDDLEWARE.
- nardy_sockets_open{process,kind} (and a pid label in multiprocess mode): realtime/socket.py.
- nardy_socket_commands_total{type,result} and nardy_socket_command_seconds{type}: a player's
  command in games/consumers.py, database work and answer included.
- nardy_deadline_lateness_seconds{enforcer}: games.services.game_deadline_enforce, after commit.
- nardy_celery_tasks_total{task,outcome}: Celery's task signals (config/celery.py connects them).
- nardy_publish_retries_total: committed events waiting for Redis (games/events.py).
- nardy_board_commands_locked_total{reason}: board commands run again under the match lock after
  their unlocked try (games/services/runners.py `play`): raced, refused, begins_or_ends,
  other_rows.
- nardy_pairing_pool_waiting{pool}: players waiting per quick-pairing pool, set by the pool
  sweep (pairing.services.pools_sweep, once per POOL_SWEEP_SECONDS).
"""

from __future__ import annotations

import os
import time
from inspect import iscoroutinefunction
from typing import Any

from asgiref.sync import markcoroutinefunction
from prometheus_client import Counter, Gauge, Histogram

PROCESS = os.environ.get("NARDY_PROCESS", "")
MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")

KNOWN_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

HTTP_REQUEST_SECONDS = Histogram(
    "nardy_http_request_seconds",
    "HTTP requests by method, URL name and status: time in Django, middleware included.",
    ["method", "route", "status"],
    buckets=LATENCY_BUCKETS,
)
SOCKETS_OPEN = Gauge(
    "nardy_sockets_open",
    "Open WebSockets of each process, by kind (match, lobby, me).",
    ["process", "kind"],
    multiprocess_mode="liveall",
)
COMMANDS = Counter(
    "nardy_socket_commands_total",
    "Players' socket commands by type and result (ok, a refusal code, unavailable, internal).",
    ["type", "result"],
)
COMMAND_SECONDS = Histogram(
    "nardy_socket_command_seconds",
    "A player's command from parsing to its answer: the service, PostgreSQL and the ack.",
    ["type"],
    buckets=LATENCY_BUCKETS,
)
DEADLINE_LATENESS = Histogram(
    "nardy_deadline_lateness_seconds",
    "Turn deadline to the server's move, by enforcer (the scheduled task or the beat sweep).",
    ["enforcer"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0),
)
CELERY_TASKS = Counter(
    "nardy_celery_tasks_total",
    "Celery tasks by name and outcome (success, failure, retry, revoked, rejected).",
    ["task", "outcome"],
)
PUBLISH_RETRIES = Counter(
    "nardy_publish_retries_total",
    "Publishes of committed events retried because Redis did not answer.",
)
BOARD_COMMANDS_LOCKED = Counter(
    "nardy_board_commands_locked_total",
    "Board commands run again under the match lock after their unlocked try, by why: raced "
    "(another writer changed the match or its game), refused, begins_or_ends (a game or the "
    "match began or ended), other_rows (it wrote more or less than the match and its game).",
    ["reason"],
)


POOL_WAITING = Gauge(
    "nardy_pairing_pool_waiting",
    "Players waiting in each quick-pairing pool (rule set.length.seconds.rated|casual), as the "
    "last pool sweep counted them.",
    ["pool"],
    multiprocess_mode="mostrecent",
)


def pool_sizes(sizes: dict[str, int], before: dict[str, int]) -> None:
    """Set each pool's gauge; a pool that emptied since the last sweep goes to 0."""
    for key in set(before) - set(sizes):
        POOL_WAITING.labels(key).set(0)
    for key, size in sizes.items():
        POOL_WAITING.labels(key).set(size)


def socket_opened(kind: str) -> None:
    SOCKETS_OPEN.labels(PROCESS, kind).inc()


def socket_closed(kind: str) -> None:
    SOCKETS_OPEN.labels(PROCESS, kind).dec()


def command_result(failure: BaseException | None) -> str:
    """The `result` label: "ok", a service's refusal code (a fixed set), or what went wrong."""
    from django.db import InterfaceError, OperationalError

    if failure is None:
        return "ok"
    if isinstance(failure, OperationalError | InterfaceError):
        return "unavailable"
    code = getattr(failure, "code", None)
    return code if isinstance(code, str) else "internal"


# Each labelled child, kept once made: `labels()` checks and joins its values under a lock on
# every call, and every socket command counts itself here (a few dozen types and results).
_command_counts: dict[tuple[str, str], Any] = {}
_command_seconds: dict[str, Any] = {}


def command_done(command_type: str, failure: BaseException | None, seconds: float) -> None:
    key = (command_type, command_result(failure))
    count = _command_counts.get(key)
    if count is None:
        count = _command_counts[key] = COMMANDS.labels(*key)
    count.inc()
    timing = _command_seconds.get(command_type)
    if timing is None:
        timing = _command_seconds[command_type] = COMMAND_SECONDS.labels(command_type)
    timing.observe(seconds)


def deadline_enforced(lateness_seconds: float, *, by_sweep: bool) -> None:
    DEADLINE_LATENESS.labels("sweep" if by_sweep else "task").observe(max(0.0, lateness_seconds))


def connect_celery_signals() -> None:
    from celery import signals

    def outcome(name: str):
        def record(sender=None, request=None, **_):
            task = getattr(sender, "name", None) or getattr(request, "task", None) or "?"
            CELERY_TASKS.labels(task, name).inc()

        return record

    for name, signal in (
        ("success", signals.task_success),
        ("failure", signals.task_failure),
        ("retry", signals.task_retry),
        ("revoked", signals.task_revoked),
        ("rejected", signals.task_rejected),
    ):
        signal.connect(outcome(name), weak=False)


class RequestMetricsMiddleware:
    """Times every request through the rest of the middleware and the view (sync or async)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        started = time.perf_counter()
        response = self.get_response(request)
        self._observe(request, response, time.perf_counter() - started)
        return response

    async def _acall(self, request):
        started = time.perf_counter()
        response = await self.get_response(request)
        self._observe(request, response, time.perf_counter() - started)
        return response

    @staticmethod
    def _observe(request, response, seconds: float) -> None:
        # The URL's name, not its path: a label per match id would grow without end.
        match = getattr(request, "resolver_match", None)
        route = (match.view_name if match is not None else "") or "unmatched"
        method = request.method if request.method in KNOWN_METHODS else "other"
        HTTP_REQUEST_SECONDS.labels(method, route, str(response.status_code)).observe(seconds)
