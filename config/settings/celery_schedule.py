"""Celery: the broker, the queues and their routes, and the schedule exactly one beat runs
(docs/operations.md "Production")."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from kombu import Queue

from .database import REDIS_PREFIX, REDIS_URL
from .testing import per_test_worker


def celery_redis_url(url: str) -> str:
    """Kombu spells a unix-socket Redis `redis+socket:///path`; redis-py spells it `unix://`."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return f"redis+socket://{parts.path}" + (f"?{parts.query}" if parts.query else "")
    return url


CELERY_BROKER_URL = celery_redis_url(REDIS_URL)
CELERY_RESULT_BACKEND = celery_redis_url(REDIS_URL)
CELERY_TASK_DEFAULT_QUEUE = (
    per_test_worker(os.environ["CELERY_QUEUE"]) if os.environ.get("CELERY_QUEUE") else REDIS_PREFIX
)
# The computer's moves have their own queue, so a Bot-Master turn (up to a second of CPU) never
# waits in front of a turn's deadline: production runs one worker per queue (docs/operations.md
# "Production"); a worker started without -Q (`make run`, the tests) consumes both. The name
# extends the default queue's, so each test run (config/launcher.py) and each test process
# (per_test_worker) keeps its own.
CELERY_BOT_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.bots"
# Post-match analysis (analysis/) is CPU work of up to a couple of minutes a match: a queue of
# its own whose worker runs at the lowest CPU priority (nice 19: deploy/systemd/
# nardy-analysis.service, the launcher), so it never delays a deadline or a bot's move.
CELERY_ANALYSIS_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.analysis"
CELERY_TASK_QUEUES = [
    Queue(CELERY_TASK_DEFAULT_QUEUE),
    Queue(CELERY_BOT_QUEUE),
    Queue(CELERY_ANALYSIS_QUEUE),
]
CELERY_TASK_ROUTES = {
    "games.bot_act": {"queue": CELERY_BOT_QUEUE},
    "games.nudge_bots": {"queue": CELERY_BOT_QUEUE},
    "analysis.run": {"queue": CELERY_ANALYSIS_QUEUE},
}
CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": f"{REDIS_PREFIX}:celery:"}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"global_keyprefix": f"{REDIS_PREFIX}:celery:"}
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 4
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# With JSON logs the worker keeps Django's LOGGING instead of installing its own plain format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = os.environ.get("LOG_FORMAT", "plain") != "json"
# How often the home page's live boards may move (games/live_boards.py).
LIVE_BOARDS_SECONDS = float(os.environ.get("LIVE_BOARDS_SECONDS", "1"))
# Exactly one beat process runs these (docs/operations.md "Production").
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "sweep-deadlines": {
        "task": "games.sweep_deadlines",
        "schedule": float(os.environ.get("DEADLINE_SWEEP_SECONDS", "0.5")),
        "options": {"expires": 5},
    },
    "sweep-pools": {
        "task": "pairing.sweep_pools",
        "schedule": float(os.environ.get("POOL_SWEEP_SECONDS", "1")),
        "options": {"expires": 5},
    },
    # The home page's small live boards (games/live_boards.py), sent when they moved.
    "publish-live-boards": {
        "task": "games.publish_live_boards",
        "schedule": LIVE_BOARDS_SECONDS,
        "options": {"expires": 5},
    },
    "expire-challenges": {
        "task": "games.expire_challenges",
        "schedule": 10.0,
        "options": {"expires": 10},
    },
    # The reminders a day before correspondence deadlines (games/services/reminders.py).
    "remind-correspondence": {
        "task": "games.remind_correspondence",
        "schedule": float(os.environ.get("CORRESPONDENCE_REMINDER_SECONDS", "60")),
        "options": {"expires": 50},
    },
    "close-stale-matches": {
        "task": "games.close_stale_matches",
        "schedule": 600.0,
        "options": {"expires": 300},
    },
    "nudge-bots": {
        "task": "games.nudge_bots",
        "schedule": 15.0,
        "options": {"expires": 10},
    },
    "delete-unused-guests": {
        "task": "accounts.delete_unused_guests",
        "schedule": 3600.0,
        "options": {"expires": 1800},
    },
    # Tournaments (tournaments/tasks.py): starts and ends overdue by a lost task, lost scores,
    # pairing, and the standings published at most once a second (tournaments/live.py).
    "sweep-tournaments": {
        "task": "tournaments.sweep",
        "schedule": float(os.environ.get("TOURNAMENT_SWEEP_SECONDS", "1")),
        "options": {"expires": 5},
    },
    "schedule-series": {
        "task": "tournaments.schedule_series",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
    # The bell's "an arena you joined starts in a minute" (notifications/arenas.py).
    "announce-arenas": {
        "task": "notifications.announce_arenas",
        "schedule": float(os.environ.get("ARENA_NOTICE_SWEEP_SECONDS", "15")),
        "options": {"expires": 10},
    },
    # ratings.selectors.BOARD_COUNT_SECONDS: the leaderboards' page starts, listed ahead of views.
    "refresh-boards": {
        "task": "ratings.refresh_boards",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
}
