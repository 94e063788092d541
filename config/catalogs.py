"""The translation catalogs: `locale/<language>/LC_MESSAGES/django.po`, and their compiled `.mo`.

The `.mo` files are committed beside the `.po` files, so `make run` and production need no gettext
tools; `make messages` (this module) refreshes both and needs GNU gettext (Debian: `gettext`).
tests/i18n checks that every catalog is complete and that each `.mo` matches its `.po`.

    make messages     # = python -m config.catalogs [make] [compile]: makemessages for every
                      #   language of settings.LANGUAGES, then compilemessages
"""

from __future__ import annotations

import os
from contextlib import chdir
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.utils.translation import to_locale

# What makemessages must not read: the virtualenv's packages (Django's and allauth's own catalogs
# cover those), tests, benchmarks, collected static files, embedded-server data.
IGNORE_PATTERNS = [".venv", ".venv/*", "tests/*", "bench/*", "staticfiles/*", ".data/*", "build/*"]


def catalog_locales() -> list[str]:
    """The locale folder of every language the site offers beside its source language (English)."""
    return [to_locale(code) for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def make_messages(root: Path) -> None:
    """Add every marked string of the code and templates under `root` to each catalog."""
    with chdir(root):  # both commands work on the current directory
        call_command(
            "makemessages",
            locale=catalog_locales(),
            ignore_patterns=IGNORE_PATTERNS,
            no_obsolete=True,
            # File names without line numbers: an edit elsewhere in a file leaves the catalogs
            # alone, and branches that add strings merge without conflicts over line numbers.
            add_location="file",
            verbosity=0,
        )


def compile_messages(root: Path) -> None:
    with chdir(root):  # both commands work on the current directory
        call_command(
            "compilemessages",
            locale=catalog_locales(),
            ignore_patterns=IGNORE_PATTERNS,
            verbosity=0,
        )


if __name__ == "__main__":
    import sys

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    steps = sys.argv[1:] or ["make", "compile"]
    for step in steps:
        {"make": make_messages, "compile": compile_messages}[step](settings.BASE_DIR)
