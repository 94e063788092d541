"""Logging: plain lines in development, one JSON object per line in production."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

# LOG_FORMAT=json (production, deploy/nardy.env.example): one JSON object per line, with the
# match and user of the socket on every line logged while it plays (config/log_format.py).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "plain")
if LOG_FORMAT not in {"plain", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be plain or json, got {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "config.log_format.JsonFormatter"},
    },
    "filters": {"play": {"()": "config.log_format.PlayContextFilter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["play"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
