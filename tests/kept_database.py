"""`make test`'s kept test database (`--reuse-db`): a PostgreSQL template of the freshly migrated
test database, copied into a new test database at the start of each run.

pytest-django's `--reuse-db` keeps the test database itself; but a transactional test empties
every table when it ends, the rows that data migrations wrote too (the computer's players), and
the next run's first tests would miss them. A copy of the template is the database exactly as the
migrations leave it, in about a second, where migrating takes about 15 s here. The template is
made again when the migrations change (their files' digest is the template's comment).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import psycopg
from psycopg import sql


def migrations_digest() -> str:
    """A digest of every migration Django would apply (ours and the libraries'), by content."""
    from django.db.migrations.loader import MigrationLoader

    digest = hashlib.sha256()
    loader = MigrationLoader(None, ignore_no_migrations=True)
    for key, migration in sorted(loader.disk_migrations.items()):
        digest.update(repr(key).encode())
        digest.update(Path(sys.modules[migration.__module__].__file__).read_bytes())
    return digest.hexdigest()


def database_name() -> str:
    from django.conf import settings

    database = settings.DATABASES["default"]
    return database.get("TEST", {}).get("NAME") or f"test_{database['NAME']}"


def _server() -> psycopg.Connection:
    """A connection to the server's maintenance database (to create and drop databases)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    return psycopg.connect(
        dbname="postgres",
        user=database.get("USER") or None,
        password=database.get("PASSWORD") or None,
        host=database.get("HOST") or None,
        port=database.get("PORT") or None,
        autocommit=True,
    )


def _end_sessions(server: psycopg.Connection, name: str) -> None:
    server.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = %s AND pid <> pg_backend_pid()",
        [name],
    )


def restore(name: str, digest: str) -> bool:
    """Make `name` a copy of its template when the template was made from these migrations (True);
    otherwise drop both, so the run migrates a new test database (False)."""
    template = f"{name}_template"
    with _server() as server:
        row = server.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            [template],
        ).fetchone()
        _end_sessions(server, name)
        server.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        if row is not None and row[0] == digest:
            server.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(name), sql.Identifier(template)
                )
            )
            return True
        server.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(template)))
        return False


def save_template(name: str, digest: str) -> None:
    """Copy the just-migrated test database `name` into its template (nobody may be connected to
    it meanwhile: the caller closes Django's connections first)."""
    template = f"{name}_template"
    with _server() as server:
        _end_sessions(server, name)
        server.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(template), sql.Identifier(name)
            )
        )
        server.execute(
            sql.SQL("COMMENT ON DATABASE {} IS {}").format(
                sql.Identifier(template), sql.Literal(digest)
            )
        )
