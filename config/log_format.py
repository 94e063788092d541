"""Logs as JSON lines in production (LOG_FORMAT=json; settings.LOGGING), one object per line
on stdout for journald or any collector, and the match and user of a socket on every line
logged while that socket plays, so one player's trouble can be followed across processes.

A match socket binds its match id and user id once (`bind_play`); Channels runs each consumer in
a task of its own, and asgiref copies the context into the threads that run its services, so
every record logged on behalf of that socket — by our code, Django or a library — carries them.
"""

from __future__ import annotations

import contextvars
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import orjson

_play: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "nardy_play", default=None
)
PROCESS = os.environ.get("NARDY_PROCESS", "")
# Attributes every LogRecord has: the rest came through `extra=` or a filter.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


def bind_play(**fields: Any) -> None:
    """Add fields (match_id, user_id) to every record logged from this task from now on."""
    _play.set({**(_play.get() or {}), **fields})


@contextmanager
def play_logging(**fields: Any) -> Iterator[None]:
    """The same for a block only (a Celery task: the next task in that process is another)."""
    token = _play.set({**(_play.get() or {}), **fields})
    try:
        yield
    finally:
        _play.reset(token)


class PlayContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in (_play.get() or {}).items():
            if not hasattr(record, name):
                setattr(record, name, value)
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if PROCESS:
            payload["process"] = PROCESS
        for name, value in vars(record).items():
            if name not in _STANDARD and not name.startswith("_"):
                payload[name] = value
        if record.exc_info:
            payload["exception"] = self.formatException(record.exc_info)
        # default=str: Django puts the request object itself in `extra`.
        return orjson.dumps(payload, default=str).decode()
