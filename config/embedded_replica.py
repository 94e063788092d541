"""A PostgreSQL streaming replica of an embedded server (config/embedded.py), on the same host:
what `make prod-check` runs beside its primary (bench/topology.py, docs/scaling.md "PostgreSQL").

`pg_basebackup` (shipped in the pgserver wheel) copies the primary through a physical
replication slot of its own, so the primary keeps the WAL the replica has not taken while it is
stopped, and writes the standby settings (`-R`); the replica then runs as a hot standby on a unix
socket of its own. As root, pgserver runs PostgreSQL as the `pgserver` user; so does this.
No Django import here: the topology starts it before any settings exist.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import psycopg

SLOT = "nardy_replica"


def _bin(name: str) -> str:
    import pgserver

    return str(Path(pgserver.__file__).parent / "pginstall" / "bin" / name)


def _system_user() -> str | None:
    return "pgserver" if os.geteuid() == 0 else None


class EmbeddedReplica:
    """A hot standby of the embedded primary at `primary_url`, its data in `folder`."""

    def __init__(self, primary_url: str, folder: Path) -> None:
        self.primary_url = primary_url
        self.folder = folder
        self.data_dir = folder / "data"
        self.log = folder / "postgres.log"

    @property
    def url(self) -> str:
        parts = urlsplit(self.primary_url)
        return f"postgres://postgres@{quote(str(self.folder), safe='')}{parts.path}"

    def _run(self, command: list[str]) -> None:  # as the server's own user when root
        subprocess.run(
            command, check=True, capture_output=True, user=_system_user(), timeout=120, cwd="/"
        )

    def start(self) -> str:
        """Copy the primary when there is no copy yet, then start the standby; returns its URL."""
        user = _system_user()
        self.folder.mkdir(parents=True, exist_ok=True)
        if user is not None:
            shutil.chown(self.folder, user, user)
        if not (self.data_dir / "PG_VERSION").exists():
            primary_socket = unquote(urlsplit(self.primary_url).netloc.split("@")[-1])
            self._run(
                [_bin("pg_basebackup"), "-D", str(self.data_dir), "-R", "-X", "stream",
                 "-c", "fast", "-C", "-S", SLOT, "-d", f"host={primary_socket} user=postgres"]
            )  # fmt: skip
        self._run(
            [_bin("pg_ctl"), "-D", str(self.data_dir), "-w", "-t", "60", "-l", str(self.log),
             "-o", f"-h '' -k {self.folder} -c hot_standby=on", "start"]
        )  # fmt: skip
        return self.url

    def stop(self) -> None:
        """A fast shutdown (the replica's drill stops it under live matches); idempotent."""
        if (self.data_dir / "postmaster.pid").exists():
            self._run([_bin("pg_ctl"), "-D", str(self.data_dir), "-m", "fast", "-w", "stop"])

    def execute(self, statement: str) -> object:
        """One statement on the replica (the drills pause and resume its replay)."""
        with psycopg.connect(libpq_conninfo(self.url), autocommit=True) as replica:
            row = replica.execute(statement).fetchone()
            return row[0] if row else None


def libpq_conninfo(url: str) -> str:
    """A libpq connection string for a `postgres://user@%2Fsocket%2Fdir/db` URL."""
    parts = urlsplit(url)
    user, _, host = parts.netloc.rpartition("@")
    return f"host={unquote(host)} user={user or 'postgres'} dbname={parts.path.lstrip('/')}"
