"""A benchmark's database, made ready the way `make run` makes the site's: migrated, and with the
static files collected (production settings serve hashed static files, whose manifest must exist).
Called inside `config.embedded.EmbeddedServices(None)`, which gives throwaway embedded servers
unless DATABASE_URL / REDIS_URL name others."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def manage(*arguments: str) -> None:
    subprocess.run([sys.executable, "manage.py", *arguments, "-v", "0"], cwd=ROOT, check=True)


def prepare() -> None:
    """Migrate the database and collect the static files; the settings module is the site's."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    manage("migrate", "--noinput")
    manage("collectstatic", "--noinput")


def run_on_database(run: Callable[[Any], int], arguments: Any, *, keep: Path | None = None) -> int:
    """`run(arguments)` with Django set up on a prepared database: throwaway embedded servers
    unless DATABASE_URL / REDIS_URL name others; with `keep`, embedded servers whose data stay in
    that folder, so the next run skips the migrations of a fresh database."""
    from config.embedded import EmbeddedServices

    with EmbeddedServices(keep):
        prepare()
        import django

        django.setup()
        return run(arguments)
