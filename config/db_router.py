"""Read-only pages from a PostgreSQL streaming replica, everything else from the primary
(docs/scaling.md "PostgreSQL").

Only a view wrapped in `replica_reads` reads the replica, and only while the replica keeps up:
a probe of its replay lag, at most once per REPLICA_PROBE_SECONDS per process, must find it in
recovery, streaming from the primary and no more than REPLICA_MAX_LAG_SECONDS behind. A replica
that lags, stops or refuses a query sends the page to the primary: a refused query makes the view
run again there at once, and the replica is not asked again before the next probe.

Writes, anything inside a transaction (a service's lock, `select_for_update`) and every read
outside those views go to the primary, so a command never decides on a replica's rows. Who is
asking (the session's user) is read from the primary before the view turns to the replica: an
account or a session made a moment ago may not have reached it.

A browser that just wrote (any request other than GET, HEAD or OPTIONS: a form, a follow, a
sign-in) gets the `primary_reads` cookie for REPLICA_AFTER_WRITE_SECONDS, and its pages read the
primary meanwhile: the player sees their own write at once, whatever the replica's lag.

With no DATABASE_REPLICA_URL there is no `replica` database and no router, and all of this does
nothing (`make run`, `make test`).
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

import dj_database_url
import psycopg
from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

PRIMARY = "default"
REPLICA = "replica"
AFTER_WRITE_COOKIE = "primary_reads"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

# Behind by how many seconds. Nothing left to replay of what it received: caught up (the last
# replayed commit may be old when the primary is idle). Otherwise how long ago the last commit it
# replayed was made on the primary (PostgreSQL's "Hot Standby" monitoring functions).
LAG_QUERY = """
SELECT pg_is_in_recovery(),
       EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming'),
       CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0.0
            ELSE COALESCE(EXTRACT(EPOCH FROM clock_timestamp()
                                  - pg_last_xact_replay_timestamp())::float8, 1e9)
       END
"""

_reading_replica: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "reading_replica", default=False
)


@dataclass(frozen=True, slots=True)
class ReplicaHealth:
    usable: bool
    lag_seconds: float | None  # None: not measured (unreachable)
    checked_at: float  # time.monotonic()
    reason: str = ""


class _Probe:
    """The process's measure of the replica, kept for REPLICA_PROBE_SECONDS; one probing
    connection of its own (not the pool's, whose wait for a connection is long)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.health: ReplicaHealth | None = None
        self.connection: psycopg.Connection | None = None
        self.url = ""  # what was measured (the settings may name another replica in a test)

    def current(self) -> ReplicaHealth:
        with self.lock:
            now = time.monotonic()
            health = self.health
            url = settings.DATABASE_REPLICA_URL
            if (
                health is None
                or url != self.url
                or now - health.checked_at >= settings.REPLICA_PROBE_SECONDS
            ):
                if url != self.url:
                    self._close()
                    self.url = url
                health = self.health = self._measure(now)
            return health

    def mark_down(self, reason: str) -> None:
        with self.lock:
            self.health = ReplicaHealth(False, None, time.monotonic(), reason)
            self._close()

    def _measure(self, now: float) -> ReplicaHealth:
        try:
            if self.connection is None or self.connection.closed:
                self.connection = psycopg.connect(**_probe_parameters(self.url))
            in_recovery, streaming, lag = self.connection.execute(LAG_QUERY).fetchone()
        except psycopg.Error as error:
            self._close()
            return ReplicaHealth(False, None, now, f"unreachable: {error}".strip())
        if not in_recovery:
            return ReplicaHealth(False, lag, now, "not a replica (promoted?)")
        if not streaming:
            return ReplicaHealth(False, lag, now, "not streaming from the primary")
        if lag > settings.REPLICA_MAX_LAG_SECONDS:
            return ReplicaHealth(False, lag, now, f"{lag:.1f} s behind")
        return ReplicaHealth(True, lag, now)

    def _close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.close()
            except psycopg.Error:
                pass
            self.connection = None


def _probe_parameters(url: str) -> dict:
    database = dj_database_url.parse(url)
    parameters = {
        "dbname": database["NAME"],
        "user": database.get("USER") or None,
        "password": database.get("PASSWORD") or None,
        "host": database.get("HOST") or None,
        "port": database.get("PORT") or None,
    }
    return {
        **{name: value for name, value in parameters.items() if value},
        "autocommit": True,
        "connect_timeout": 1,
        "options": "-c statement_timeout=1000",
        "application_name": "nardy replica probe",
    }


_probe = _Probe()


def replica_configured() -> bool:
    return bool(settings.DATABASE_REPLICA_URL)


def replica_health() -> ReplicaHealth:
    """The replica as this process last measured it (measured again when stale)."""
    return _probe.current()


def replica_mark_down(reason: str) -> None:
    """Read the primary until the next probe (a query on the replica failed)."""
    _probe.mark_down(reason)


class ReplicaRouter:
    """DATABASE_ROUTERS' one router when a replica is configured (see the module's docstring)."""

    def db_for_read(self, model, **hints) -> str:
        if _reading_replica.get() and not connections[PRIMARY].in_atomic_block:
            return REPLICA
        # Never None: Django would then read an object's relations where it was loaded.
        return PRIMARY

    def db_for_write(self, model, **hints) -> str:
        return PRIMARY

    def allow_relation(self, first, second, **hints) -> bool:
        return True  # one database, two copies

    def allow_migrate(self, db: str, app_label: str, **hints) -> bool:
        return db == PRIMARY


def _wants_primary(request: HttpRequest) -> bool:
    return (
        not replica_configured()
        or request.method not in ("GET", "HEAD")
        or AFTER_WRITE_COOKIE in request.COOKIES
    )


def replica_reads(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Serve this read-only page from the replica when it keeps up (see above)."""

    @wraps(view)
    def reading(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if _wants_primary(request):
            return view(request, *args, **kwargs)
        request.user.is_authenticated  # noqa: B018 - the session's user, from the primary
        if not replica_health().usable:
            return view(request, *args, **kwargs)
        token = _reading_replica.set(True)
        try:
            return view(request, *args, **kwargs)
        except DatabaseError as error:
            # Stopped or restarted since the probe: this page, and every page until the next
            # probe, from the primary.
            log.warning("replica read failed, reading the primary: %s", error)
            replica_mark_down(f"query failed: {error}")
        finally:
            _reading_replica.reset(token)
        return view(request, *args, **kwargs)

    return reading


class PrimaryAfterWriteMiddleware:
    """Gives a browser that wrote the `primary_reads` cookie (see above)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest):
        if iscoroutinefunction(self):
            return self._async_call(request)
        return self._stamped(request, self.get_response(request))

    async def _async_call(self, request: HttpRequest):
        return self._stamped(request, await self.get_response(request))

    def _stamped(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if replica_configured() and request.method not in SAFE_METHODS:
            response.set_cookie(
                AFTER_WRITE_COOKIE,
                "1",
                max_age=settings.REPLICA_AFTER_WRITE_SECONDS,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
