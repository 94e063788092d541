"""`make run` and `make test`: embedded servers when none are given, then the site or the suite.

    python -m config.launcher run [--no-migrate] [--no-beat]   # Daphne + Celery worker + beat
    python -m config.launcher test [pytest arguments...]       # throwaway servers + pytest
    python -m config.launcher manage [manage.py arguments...]  # e.g. createsuperuser

`run` keeps its data in `.data/` (git-ignored) across restarts; `test` uses throwaway servers.
With DATABASE_URL / REDIS_URL in the environment those servers are used and nothing is started.
Ctrl-C (SIGINT) or SIGTERM stops every process started here, embedded servers last.
"""

from __future__ import annotations

import argparse
import fcntl
import logging
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

from config import processes
from config.embedded import EmbeddedServices
from config.processes import Stop

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("NARDY_DATA_DIR", ROOT / ".data"))

log = logging.getLogger("launcher")


def manage(*arguments: str) -> None:
    subprocess.run([sys.executable, "manage.py", *arguments], cwd=ROOT, check=True)


def server_commands(*, port: int, beat: bool) -> dict[str, list[str]]:
    python = sys.executable
    commands = {
        "daphne": [
            # Daphne on uvloop's event loop, with Daphne's own arguments.
            python, "-m", "config.server", "-b", os.environ.get("HOST", "127.0.0.1"),
            "-p", str(port), "web.asgi:application",
        ],
        # Every queue but the analysis's (config/settings/celery_schedule.py
        # CELERY_ANALYSIS_QUEUE): that one has
        # its own worker below, one process at the lowest CPU priority (ANALYSIS_WORKER_NICE,
        # default 19), as in production.
        "worker": [
            python, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
            "--without-gossip", "--without-mingle", "--hostname", f"worker-{port}@%h",
            "--exclude-queues", analysis_queue(),
        ],
        "analysis": [
            "nice", "-n", os.environ.get("ANALYSIS_WORKER_NICE", "19"),
            python, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
            "--without-gossip", "--without-mingle", "--concurrency", "1",
            "--hostname", f"analysis-{port}@%h", "--queues", analysis_queue(),
        ],
    }  # fmt: skip
    if beat:
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        commands["beat"] = [
            python, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO",
            "--schedule", str(DATA_DIR / f"celerybeat-schedule-{port}"),
        ]  # fmt: skip
    return commands


def analysis_queue() -> str:
    """The analysis's Celery queue, named as config/settings/ names it (CELERY_ANALYSIS_QUEUE:
    the default queue, CELERY_QUEUE or else REDIS_PREFIX, plus ".analysis"); the processes this
    starts get the test run's derived names in those variables (tests/conftest.py)."""
    default = os.environ.get("CELERY_QUEUE") or os.environ.get("REDIS_PREFIX", "nardy")
    return f"{default}.analysis"


def development_default() -> None:
    """`make run` and `make manage` are for development unless the environment says otherwise
    (settings default to production, DEBUG off: a forgotten DEBUG=0 shows no debug pages)."""
    os.environ.setdefault("DEBUG", "1")


def command_run(arguments: argparse.Namespace) -> int:
    port = int(os.environ.get("PORT", "8000"))
    development_default()
    with EmbeddedServices(DATA_DIR):
        if not arguments.no_migrate:
            manage("migrate", "--noinput")
            if os.environ["DEBUG"].lower() in {"0", "false", "no", "off"}:
                manage("collectstatic", "--noinput")
        children: dict[str, subprocess.Popen[bytes]] = {}
        try:
            for name, command in server_commands(port=port, beat=not arguments.no_beat).items():
                # Own process group: we decide when and how each one stops.
                children[name] = processes.start(command)
            print(f"\n  Long Nardy is running at http://127.0.0.1:{port}/  (Ctrl-C stops)\n",
                  flush=True)  # fmt: skip
            while True:
                for name, process in children.items():
                    if process.poll() is not None:
                        log.error("%s exited with code %s; stopping", name, process.returncode)
                        return 1
                time.sleep(0.5)
        except Stop as reason:
            log.info("stopping (%s)", reason)
            return 0
        finally:
            processes.ignore_signals()
            processes.stop(children.values())


def command_manage(manage_arguments: list[str]) -> int:
    """A manage.py command on `make run`'s servers (shared with it when it is running)."""
    development_default()
    with EmbeddedServices(DATA_DIR):
        return subprocess.run([sys.executable, "manage.py", *manage_arguments], cwd=ROOT).returncode


def test_servers(pytest_arguments: list[str]) -> tuple[EmbeddedServices, object]:
    """Throwaway servers; with `--reuse-db` (`make test`) the embedded PostgreSQL keeps its data
    in .data/test, so the next run finds the migrated test database (pytest-django keeps it and
    applies only new migrations). One run at a time uses that folder (a lock): a second run
    beside it gets throwaway servers. The suite's PostgreSQL runs without durability
    (config/embedded.py, `DURABILITY`)."""
    if "--reuse-db" not in pytest_arguments:
        return EmbeddedServices(None, durable=False), None
    folder = DATA_DIR / "test"
    folder.mkdir(parents=True, exist_ok=True)
    lock = open(folder / "run.lock", "w")  # held for the whole run
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        log.info("another test run keeps %s: throwaway servers for this one", folder)
        return EmbeddedServices(None, durable=False), None
    return EmbeddedServices(folder, keep_redis=False, durable=False), lock


def command_test(pytest_arguments: list[str]) -> int:
    servers, _lock = test_servers(pytest_arguments)
    with servers:
        environment = dict(os.environ)
        # Keep this run's keys and queues apart from anything else on a shared Redis.
        run_prefix = f"nardy-test-{secrets.token_hex(4)}"
        environment.setdefault("REDIS_PREFIX", run_prefix)
        environment.setdefault("CELERY_QUEUE", run_prefix)
        environment.setdefault("DEBUG", "1")
        # MD5 instead of PBKDF2's million iterations for the suite's throwaway users (about
        # 0.65 s each); settings honour it only with DEBUG on.
        environment.setdefault("NARDY_FAST_PASSWORD_HASHER", "1")
        environment["DJANGO_SETTINGS_MODULE"] = "config.settings"
        process = subprocess.Popen(
            [sys.executable, "-m", "pytest", *pytest_arguments], cwd=ROOT, env=environment
        )
        try:
            return process.wait()
        except Stop:
            process.send_signal(signal.SIGINT)
            return process.wait()


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    parser = argparse.ArgumentParser(prog="python -m config.launcher")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="start Daphne, a Celery worker and beat")
    run.add_argument("--no-migrate", action="store_true")
    run.add_argument("--no-beat", action="store_true")
    commands.add_parser("test", help="run pytest on throwaway servers", add_help=False)
    commands.add_parser("manage", help="a manage.py command on run's servers", add_help=False)
    arguments, rest = parser.parse_known_args(argv)
    processes.stop_on_signals()
    try:
        if arguments.command == "run":
            if rest:
                parser.error(f"unknown arguments: {' '.join(rest)}")
            return command_run(arguments)
        if arguments.command == "manage":
            return command_manage(rest)
        return command_test(rest)
    except Stop:
        return 130


if __name__ == "__main__":
    sys.exit(main())
