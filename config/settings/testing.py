"""Every way a test run's settings differ from a real site's, in one place. A test run is
`config.launcher test` (make test / test-all), which sets DEBUG=1 and
NARDY_FAST_PASSWORD_HASHER=1 and gives each pytest-xdist process its own Redis prefix and Celery
queue (below); the site processes the tests start add tests/conftest.py SITE_SETTINGS (test dice,
limits a program's clicks would hit, the computer's pace). Each seam here is honoured only with
DEBUG on, so none can reach production."""

from __future__ import annotations

import os

from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured

from .base import DEBUG, env_bool


def per_test_worker(name: str) -> str:
    """Test runs only: pytest-xdist runs the suite in several processes at once and sets
    PYTEST_XDIST_WORKER (gw0, gw1, ...) in each before settings load. pytest-django gives each its
    own database (`_gw0`); this gives each its own Redis keys and Celery queue, so one's site and
    worker never take another's tasks. The processes a test starts get the values it derived
    (tests/conftest.py, child_environment), not the variable."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"{name}-{worker}" if worker else name


# Password hashing stays Django's default (PBKDF2, 1,000,000 iterations in Django 5.2). A test run
# hashes thousands of throwaway passwords at about 0.65 s each, so `config.launcher test` sets
# NARDY_FAST_PASSWORD_HASHER and its processes hash with MD5 first (still checking any stored
# PBKDF2 hash). Honoured only with DEBUG on: a production process keeps PBKDF2 even if the
# variable leaks into its environment (tests/config/test_settings.py).
if DEBUG and env_bool("NARDY_FAST_PASSWORD_HASHER", False):
    PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        *global_settings.PASSWORD_HASHERS,
    ]
# Test-only dice seam (games/dice.py): honoured only when DEBUG is on AND this is set; a
# production process (DEBUG=0) refuses to start with it (see games/apps.py).
NARDY_TEST_DICE = env_bool("NARDY_TEST_DICE", False)
if NARDY_TEST_DICE and not DEBUG:
    raise ImproperlyConfigured("NARDY_TEST_DICE cannot be switched on in production (DEBUG=0).")
