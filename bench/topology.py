"""The production topology on one machine, as deploy/ describes it, for tests and benchmarks.

Debian's nginx (TLS with a self-signed certificate, deploy/nginx/nardy.conf rendered into a
temporary folder, run as the current user) in front of N Daphne processes on unix sockets, a
Celery worker and the one beat, all with DEBUG=0, on given PostgreSQL and Redis (DATABASE_URL /
REDIS_URL: a fresh database `nardy_prod_<token>` is made there and dropped after) or on embedded
ones of its own, which the restart drills may stop and start: then optionally more Redis servers
for the sockets' messages and a streaming replica for the read-only pages (docs/scaling.md).

Used by tests/integration/test_production.py (`make prod-check`) and bench/soak.py. Process logs
go to `<root>/logs/`; the folder is removed on stop unless it is kept for a failed run.
"""

from __future__ import annotations

import http.client
import logging
import os
import re
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench.live_load import STOP_GRACE, run_django_task
from config import processes
from config.embedded import EmbeddedPostgres, EmbeddedRedis
from config.embedded_replica import EmbeddedReplica
from config.processes import Children, free_port

ROOT = Path(__file__).resolve().parent.parent
SITE_CONFIG = ROOT / "deploy" / "nginx" / "nardy.conf"
SERVER_NAME = "localhost"
START_TIMEOUT = 90.0
# The Celery processes start again when they exit by themselves, as their systemd units do
# (deploy/systemd/nardy-worker.service and the others: Restart=always, RestartSec=2). kombu's
# Redis transport (5.7) can end a worker with "Unrecoverable error: AttributeError: 'NoneType'
# object has no attribute 'hostname'" when Redis goes away while the worker restores its
# unacknowledged messages: twice in 26 Redis restarts on a loaded machine, and in a CI run of
# the Redis restart drill. At most RESTARTS_MAX times each, so a process that fails at every
# start still fails the wait (systemd's StartLimitBurst does the same). Which ones, and how each
# starts: RESTARTED_LIKE_SYSTEMD, after the class.
RESTART_SECONDS = 2.0
RESTARTS_MAX = 3

log = logging.getLogger("topology")


def render_site_config(
    text: str, *, root: Path, sockets: list[Path], https_port: int, http_port: int
) -> str:
    """deploy/nginx/nardy.conf with this machine's paths, ports, name and Daphne sockets.

    Only these change; every other line is the shipped one. IPv6 listeners are dropped (a
    container may have no IPv6). Each replacement must match, so an edit of the shipped file
    that this function no longer understands fails here instead of testing something else.
    """
    upstream_line = re.compile(r"^(\s*)server unix:/run/nardy/daphne-\d+\.sock( .*)?;\n", re.M)
    found = upstream_line.findall(text)
    if not found:
        raise ValueError("no `server unix:/run/nardy/daphne-N.sock` line in the upstream")
    indent, parameters = found[0]
    lines = "".join(f"{indent}server unix:{path}{parameters};\n" for path in sockets)
    text = upstream_line.sub("", text, count=len(found) - 1)
    text = upstream_line.sub(lines.replace("\\", "\\\\"), text, count=1)
    replacements = [
        (re.compile(r"^\s*listen \[::\]:\d+.*\n", re.M), ""),
        (re.compile(r"listen 443 "), f"listen 127.0.0.1:{https_port} "),
        (re.compile(r"listen 80;"), f"listen 127.0.0.1:{http_port};"),
        (re.compile(r"nardy\.example\.org"), SERVER_NAME),
        (re.compile(r"/etc/ssl/nardy/"), f"{root}/tls/"),
        (re.compile(r"root /srv/nardy;"), f"root {root};"),
        (re.compile(r"/var/log/nginx/"), f"{root}/logs/"),
    ]
    for pattern, replacement in replacements:
        text, count = pattern.subn(replacement, text)
        if count == 0:
            raise ValueError(f"deploy/nginx/nardy.conf has no {pattern.pattern!r} any more")
    return text


def render_main_config(root: Path) -> str:
    """The nginx.conf around the site file: what Debian's /etc/nginx/nginx.conf provides, with
    every path inside `root` so nginx runs as the current user."""
    nginx = root / "nginx"
    return f"""worker_processes 1;
pid {nginx}/nginx.pid;
error_log {root}/logs/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    client_body_temp_path {nginx}/body;
    proxy_temp_path {nginx}/proxy;
    fastcgi_temp_path {nginx}/fastcgi;
    uwsgi_temp_path {nginx}/uwsgi;
    scgi_temp_path {nginx}/scgi;
    log_format topology '$remote_addr "$request" $status $upstream_addr $request_time';
    access_log {root}/logs/nginx-access.log topology;
    # Not in the shipped site file: tells the tests which Daphne process answered.
    add_header X-Nardy-Upstream $upstream_addr always;
    include {nginx}/nardy.conf;
}}
"""


def make_certificate(folder: Path) -> Path:
    """A self-signed certificate for `localhost` (openssl CLI); returns the file clients trust."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", f"/CN={SERVER_NAME}",
         "-addext", f"subjectAltName=DNS:{SERVER_NAME}",
         "-keyout", str(folder / "privkey.pem"), "-out", str(folder / "fullchain.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    return folder / "fullchain.pem"


class UnixHTTPConnection(http.client.HTTPConnection):
    """HTTP to one Daphne process's unix socket (bypassing nginx, to probe that process)."""

    def __init__(self, path: Path, timeout: float = 5.0) -> None:
        super().__init__("localhost", timeout=timeout)
        self.socket_path = str(path)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.socket_path)


def unix_get(path: Path, url: str) -> tuple[int, bytes]:
    connection = UnixHTTPConnection(path)
    try:
        # As nginx sends it: Daphne's settings trust one proxy (TRUSTED_PROXY_COUNT=1).
        connection.request(
            "GET", url, headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "127.0.0.1"}
        )
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class Topology:
    """Start with `with Topology(...) as topology:`; everything stops on exit, servers last."""

    def __init__(
        self,
        *,
        daphne_count: int = 2,
        own_servers: bool = False,
        redis_shards: int = 1,
        replica: bool = False,
        **settings: str,
    ) -> None:
        self.daphne_count = daphne_count
        # With own servers: more Redis servers for the sockets' messages, and a streaming replica
        # for the read-only pages (docs/scaling.md).
        self.redis_shard_count = redis_shards
        self.want_replica = replica
        self.redis_shards: list[EmbeddedRedis] = []  # the servers after REDIS_URL's
        self.replica: EmbeddedReplica | None = None
        self.settings = settings  # more environment for every process, e.g. SOCKETS_PER_ADDRESS
        self.own_servers = own_servers or not os.environ.get("DATABASE_URL")
        self.token = secrets.token_hex(4)
        # Short: unix socket paths must stay under ~107 bytes.
        self.root = Path(tempfile.mkdtemp(prefix="nardy-prod-"))
        self.logs = self.root / "logs"
        self.children = Children(self.logs, grace=STOP_GRACE)
        self.postgres: EmbeddedPostgres | None = None
        self.redis: EmbeddedRedis | None = None
        self.given_database: str | None = None
        self.https_port = free_port()
        self.http_port = free_port()
        self.environment: dict[str, str] = {}
        self.ca_file = self.root / "tls" / "fullchain.pem"
        self.keep_root = False
        self.restarts: list[tuple[str, int | None]] = []  # (name, its exit code), in order

    # --- paths and addresses ----------------------------------------------------------------
    def socket_path(self, index: int) -> Path:
        return self.root / "run" / f"daphne-{index}.sock"

    @property
    def base_url(self) -> str:
        return f"https://{SERVER_NAME}:{self.https_port}"

    @property
    def websocket_url(self) -> str:
        return f"wss://{SERVER_NAME}:{self.https_port}"

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca_file))

    # --- start and stop ---------------------------------------------------------------------
    def __enter__(self) -> Topology:
        try:
            self.start()
        except BaseException:
            self.keep_root = True
            self.stop()
            raise
        return self

    def __exit__(self, exc_type, *rest) -> None:
        self.keep_root = self.keep_root or exc_type is not None
        self.stop()

    def start(self) -> None:
        for folder in ("logs", "run", "static", "nginx", "metrics"):
            (self.root / folder).mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        self.environment = self._environment()
        self.run_manage("migrate", "--noinput", "-v", "0")
        self.run_manage("collectstatic", "--noinput", "-v", "0")
        log.info("migrated and collected static files in %.1f s", time.monotonic() - started)
        make_certificate(self.root / "tls")
        (self.root / "nginx" / "nardy.conf").write_text(
            render_site_config(
                SITE_CONFIG.read_text(),
                root=self.root,
                sockets=[self.socket_path(i) for i in range(1, self.daphne_count + 1)],
                https_port=self.https_port,
                http_port=self.http_port,
            )
        )
        (self.root / "nginx" / "nginx.conf").write_text(render_main_config(self.root))
        for index in range(1, self.daphne_count + 1):
            self.start_daphne(index)
        self.start_worker()
        self.start_analysis_worker()
        self.start_beat()
        self.start_nginx()
        for index in range(1, self.daphne_count + 1):
            self.wait_daphne(index)
        self.wait_healthy()
        log.info("topology up in %.1f s at %s", time.monotonic() - started, self.base_url)

    def _environment(self) -> dict[str, str]:
        environment = dict(os.environ)
        if self.own_servers:
            self.postgres = EmbeddedPostgres(self.root / "postgres", throwaway=False)
            environment["DATABASE_URL"] = self.postgres.start()
            self.redis = EmbeddedRedis(self.root / "redis", throwaway=False)
            environment["REDIS_URL"] = self.redis.start()
            for index in range(2, self.redis_shard_count + 1):
                self.redis_shards.append(
                    EmbeddedRedis(self.root / f"redis-{index}", throwaway=False)
                )
            urls = [environment["REDIS_URL"], *(shard.start() for shard in self.redis_shards)]
            environment["REDIS_CHANNEL_URLS"] = " ".join(urls)
            if self.want_replica:
                self.replica = EmbeddedReplica(environment["DATABASE_URL"], self.root / "replica")
                environment["DATABASE_REPLICA_URL"] = self.replica.start()
        else:
            environment["DATABASE_URL"] = self._fresh_database(environment["DATABASE_URL"])
        environment.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            PYTHONUNBUFFERED="1",
            DEBUG="0",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS=SERVER_NAME,
            EMAIL_HOST="localhost",  # production needs one; these runs send no mail
            STATIC_ROOT=str(self.root / "static"),
            TRUSTED_PROXY_COUNT="1",
            REDIS_PREFIX=f"nardy-prod-{self.token}",
            CELERY_QUEUE=f"nardy-prod-{self.token}",
            PROMETHEUS_MULTIPROC_DIR=str(self.root / "metrics"),
            METRICS_ALLOWED_IPS="127.0.0.1",
            HEALTHZ_ALLOWED_IPS="127.0.0.1",
            HEALTHZ_CACHE_SECONDS="1",  # start-up and recovery waits poll it
            LOG_FORMAT="json",
            LOG_LEVEL=os.environ.get("TOPOLOGY_LOG_LEVEL", "WARNING"),
            DATABASE_POOL_MAX=os.environ.get("DATABASE_POOL_MAX", "10"),
        )
        environment.update(self.settings)
        environment.pop("DATABASE_TEST_NAME", None)
        return environment

    def _fresh_database(self, url: str) -> str:
        import psycopg

        parts = urlsplit(url)
        self.given_database = f"nardy_prod_{self.token}"
        with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {self.given_database}")
        return urlunsplit(parts._replace(path=f"/{self.given_database}"))

    def _drop_database(self) -> None:
        import psycopg

        parts = urlsplit(self.environment["DATABASE_URL"])
        with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {self.given_database} WITH (FORCE)")

    def run_manage(self, *arguments: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *arguments], cwd=ROOT, env=self.environment, check=True
        )

    def django_task(self, task: str, payload: dict, timeout: float = 300) -> dict:
        """bench/live_load.py's Django tasks (setup, verify, ...) on this topology's database."""
        return run_django_task(task, payload, self.environment, timeout, log_dir=self.logs)

    def stop(self) -> None:
        try:
            self.children.stop()
            self.children.close_logs()
        finally:
            try:
                for server in (self.redis, *self.redis_shards, self.replica):
                    if server is not None:
                        server.stop()
                if self.postgres is not None:
                    self.postgres.stop()
                if self.given_database is not None and self.environment:
                    self._drop_database()
            finally:
                if self.keep_root:
                    log.warning("kept %s (logs in %s)", self.root, self.logs)
                else:
                    shutil.rmtree(self.root, ignore_errors=True)

    # --- the processes ----------------------------------------------------------------------
    def start_daphne(self, index: int) -> subprocess.Popen:
        return self.children.start(
            f"daphne-{index}",
            [sys.executable, "-m", "config.server", "-u", str(self.socket_path(index)),
             "web.asgi:application"],
            {**self.environment, "NARDY_PROCESS": f"daphne-{index}"},
        )  # fmt: skip

    def start_worker(self) -> subprocess.Popen:
        return self.children.start(
            "worker",
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING",
             "--concurrency", "2", "--without-gossip", "--without-mingle",
             "--exclude-queues", f"{self.environment['CELERY_QUEUE']}.analysis",
             "--hostname", f"prod-{self.token}@%h"],
            {**self.environment, "NARDY_PROCESS": "worker"},
        )  # fmt: skip

    def start_analysis_worker(self) -> subprocess.Popen:
        """The post-match analysis's worker (deploy/systemd/nardy-analysis.service): its own
        queue, one process, nice 19."""
        return self.children.start(
            "analysis",
            ["nice", "-n", "19", sys.executable, "-m", "celery", "-A", "config", "worker",
             "--loglevel", "WARNING", "--concurrency", "1", "--without-gossip",
             "--without-mingle", "--queues", f"{self.environment['CELERY_QUEUE']}.analysis",
             "--hostname", f"prod-analysis-{self.token}@%h"],
            {**self.environment, "NARDY_PROCESS": "analysis"},
        )  # fmt: skip

    def start_beat(self) -> subprocess.Popen:
        return self.children.start(
            "beat",
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING",
             "--schedule", str(self.root / "celerybeat-schedule")],
            {**self.environment, "NARDY_PROCESS": "beat"},
        )  # fmt: skip

    def start_nginx(self) -> subprocess.Popen:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        configuration = str(self.root / "nginx" / "nginx.conf")
        check = subprocess.run(
            [nginx, "-t", "-q", "-p", str(self.root / "nginx"), "-c", configuration],
            capture_output=True, text=True,
        )  # fmt: skip
        if check.returncode != 0:
            raise RuntimeError(f"nginx -t refused the rendered configuration:\n{check.stderr}")
        return self.children.start(
            "nginx",
            [nginx, "-p", str(self.root / "nginx"), "-c", configuration, "-g", "daemon off;"],
            self.environment,
        )

    def pid(self, name: str) -> int:
        return self.children.processes[name].pid

    def kill(self, name: str) -> None:
        """SIGKILL one process and its group (a Celery worker's pool children too)."""
        self.children.kill(name)

    def wait_daphne(self, index: int, timeout: float = START_TIMEOUT) -> None:
        """Until this Daphne process answers a page on its own socket."""
        name = f"daphne-{index}"
        processes.wait_until(
            lambda: unix_get(self.socket_path(index), "/rules/")[0] == 200,
            timeout=timeout, what=f"{name} (/rules/ on its socket)",
            processes={name: self.children.processes[name]},
        )  # fmt: skip

    def wait_healthy(self, timeout: float = START_TIMEOUT) -> None:
        """Until /healthz through nginx is 200: database, Redis, channel layer and a worker.
        A Celery process that exited meanwhile is started again (RESTARTED_LIKE_SYSTEMD, noted
        in `restarts`); any other child that exited fails the wait with the end of its log (the
        folder is removed when the run ends)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                processes.wait_until(
                    lambda: self.get("/healthz")[0] == 200,
                    timeout=max(0.0, deadline - time.monotonic()),
                    what=f"/healthz through nginx (logs in {self.logs})",
                    processes=self.children.processes, interval=0.2,
                )  # fmt: skip
                return
            except processes.ProcessExited as exited:
                gone = [
                    n for n, child in self.children.processes.items() if child.poll() is not None
                ]
                if not all(self._restart(name) for name in gone):
                    tails = "".join(f"\n--- {n}.log ---\n{self.children.log_tail(n)}" for n in gone)
                    raise processes.ProcessExited(f"{exited}{tails}") from exited

    def _restart(self, name: str) -> bool:
        """Start an exited Celery process again, as systemd would; False for any other child or
        past RESTARTS_MAX."""
        start = RESTARTED_LIKE_SYSTEMD.get(name)
        if start is None or [n for n, _code in self.restarts].count(name) >= RESTARTS_MAX:
            return False
        code = self.children.processes[name].returncode
        log.warning(
            "%s exited with %s; started again after %.0f s, as its systemd unit would be:\n%s",
            name, code, RESTART_SECONDS, self.children.log_tail(name, 12),
        )  # fmt: skip
        time.sleep(RESTART_SECONDS)
        start(self)
        self.restarts.append((name, code))
        return True

    # --- HTTP through nginx -----------------------------------------------------------------
    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        connection = http.client.HTTPSConnection(
            SERVER_NAME, self.https_port, timeout=10, context=self.ssl_context()
        )
        try:
            connection.request("GET", path, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()


# The Celery processes started again when they exit by themselves (RESTART_SECONDS above), each
# by its own start method.
RESTARTED_LIKE_SYSTEMD: dict[str, Callable[[Topology], object]] = {
    "worker": Topology.start_worker,
    "analysis": Topology.start_analysis_worker,
    "beat": Topology.start_beat,
}
