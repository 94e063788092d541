"""The Celery application; tasks live in each app's tasks.py (autodiscovered)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(
    [
        "config",
        "accounts",
        "games",
        "pairing",
        "ratings",
        "analysis",
        "tournaments",
        "notifications",
    ]
)

# Task outcomes for /metrics (config/metrics.py).
from config.metrics import connect_celery_signals  # noqa: E402

connect_celery_signals()
