"""Live load benchmark: N matches played concurrently through real Daphne + Redis + PostgreSQL.

    .venv/bin/python -m bench.live_load --matches 100 [--spectators-per-match 1]
        [--step-interval 2.0] [--duration 60] [--daphne-processes 2] [--pool-max 10] [--auto-roll]
        [--plain-acks] [--route-by-match]
        [--report figures.json]

What it does (protocol in docs/protocol.md):

1. Servers: with DATABASE_URL / REDIS_URL unset, throwaway embedded PostgreSQL + Redis
   (config.embedded.EmbeddedServices(None)); with them set, a separate database (`nardy_bench`,
   dropped and created afresh) and a unique REDIS_PREFIX / CELERY_QUEUE. Then `manage.py migrate`.
2. Setup (a Django child process, bench/live_setup.py): 2N users, N casual untimed matches
   begun in bulk (the first few through match_create + match_accept, timed), one session cookie
   per user.
3. K Daphne processes + one Celery worker, as the launcher starts them; /healthz 200 on each.
4. The load generator in its own process (asyncio + websockets): two player sockets and S anonymous
   spectator sockets per match, spread round-robin over the Daphne ports. A player rolls on its
   turn (with --auto-roll the server rolls for it as the turn begins, as the site's "roll
   automatically" preference does: no roll commands) and, in phase "move", waits ~step-interval
   (±20 %) and sends one random legal step with its current version. Round trip = step sent ->
   the opponent's / each spectator's socket receives the `step` event (one sample per receiver).
5. After --duration: stop sending, settle 2 s, compare the final version + board of every socket
   with PostgreSQL (Match.version, current Game.board), print the report.
6. Everything started here is stopped (SIGTERM, then SIGKILL), embedded servers last. Ctrl-C works.

Child logs: /tmp/bench-logs/ (daphne-<i>.log, worker.log, client.log, setup.log).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import resource
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# The load generator shares the machine with the servers it measures: its own CPU is taken from
# theirs. uvloop and orjson (bench/clients.py) cut the client's CPU per command by a third
# (1.08 -> 0.73 ms).
import uvloop

from bench.clients import LoadClient, percentile
from bench.live_setup import setup_matches
from config import processes
from config.processes import Children, Stop, free_port

ROOT = Path(__file__).resolve().parent.parent
LOG_DIR = Path(os.environ.get("BENCH_LOG_DIR", "/tmp/bench-logs"))
BENCH_DATABASE = "nardy_bench"
START_TIMEOUT = 90.0
STOP_GRACE = 10.0
SETTLE_SECONDS = 2.0

log = logging.getLogger("bench")


def raise_nofile_limit() -> tuple[int, int]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


# =================================================================================================
# Django tasks (run in a child process: `python -m bench.live_load --django-task setup|verify`)
# =================================================================================================


def django_task(task: str, input_path: str, output_path: str) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    payload = json.loads(Path(input_path).read_text())
    tasks = {
        "setup": lambda: setup_matches(
            payload["matches"],
            payload["prefix"],
            payload["auto_roll"],
            payload.get("turn_seconds"),
            payload.get("length"),
        ),
        "verify": lambda: _read_matches(payload["match_ids"]),
        "user": lambda: _make_user(payload["username"], payload["password"]),
        "server_turns": lambda: _server_turns(payload["match_ids"]),
        "held_deadlines": _held_deadlines,
    }
    if task not in tasks:
        raise SystemExit(f"unknown task {task}")
    Path(output_path).write_text(json.dumps(tasks[task]()))
    return 0


def _make_user(username: str, password: str) -> dict:
    """A user who can log in with a password (verified email), for login checks."""
    from allauth.account.models import EmailAddress

    from accounts.models import User

    user = User.objects.create_user(
        username, f"{username}@bench.invalid", password, confirm_turn=False
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return {"id": user.pk}


def _held_deadlines() -> list[int]:
    """The matches whose deadline task a worker holds now: received and waiting for its time
    (Celery's `inspect().scheduled()`, which every worker answers over the broker)."""
    from config.celery import app

    held = app.control.inspect(timeout=2.0).scheduled() or {}
    return sorted(
        {
            entry["request"]["args"][0]
            for entries in held.values()
            for entry in entries
            if entry["request"]["name"] == "games.enforce_deadline"
        }
    )


def _server_turns(match_ids: list[int]) -> list[dict]:
    """Turns the server played for a mover out of time: when, against the turn's deadline."""
    from games.models import Turn

    turns = Turn.objects.filter(game__match_id__in=match_ids, by_server=True).select_related(
        "game__match"
    )
    return [
        {
            "match": turn.game.match_id,
            "finished_at": turn.finished_at.timestamp(),
            # Without a reserve bank the deadline is the turn's start plus the turn time.
            "late_seconds": (turn.finished_at - turn.started_at).total_seconds()
            - turn.game.match.turn_seconds,
        }
        for turn in turns
    ]


def _read_matches(match_ids: list[int]) -> dict:
    from games.models import Match, Phase, Turn

    result = {}
    for match in Match.objects.filter(pk__in=match_ids):
        game = match.games.order_by("-number").first()
        # Steps the players made: the move log's turns, plus the turn in progress (a finished
        # game's last turn is in the log already). Turns the server played are not theirs.
        player_turns = Turn.objects.filter(game__match=match, by_server=False)
        steps = sum(len(steps) for steps in player_turns.values_list("steps", flat=True))
        steps += sum(len(g.steps) for g in match.games.exclude(phase=Phase.OVER))
        result[str(match.pk)] = {
            "version": match.version,
            "status": match.status,
            "board": list(game.board) if game is not None else None,
            "games": match.games.count(),
            "player_steps": steps,
        }
    return result


def client_main(plan_path: str, output_path: str) -> int:
    raise_nofile_limit()
    plan = json.loads(Path(plan_path).read_text())

    async def runner() -> dict:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, task.cancel)
        return await LoadClient(plan).run()

    try:
        result = uvloop.run(runner())
    except asyncio.CancelledError:
        print("[client] cancelled", file=sys.stderr)
        return 130
    Path(output_path).write_text(json.dumps(result))
    return 0


# =================================================================================================
# The orchestrator
# =================================================================================================


def run_django_task(
    task: str, payload: dict, environment: dict[str, str], timeout: float, log_dir: Path = LOG_DIR
) -> dict:
    log_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        input_path, output_path = Path(folder) / "in.json", Path(folder) / "out.json"
        input_path.write_text(json.dumps(payload))
        with open(log_dir / f"{task}.log", "wb") as log_file:
            process = processes.start(
                [sys.executable, "-m", "bench.live_load", "--django-task", task,
                 str(input_path), str(output_path)],
                env=environment, stdout=log_file, stderr=subprocess.STDOUT,
            )  # fmt: skip
            try:
                code = process.wait(timeout)
            except (subprocess.TimeoutExpired, Stop):
                process.kill()
                process.wait()
                raise
        if code != 0:
            raise RuntimeError(f"{task} failed (exit {code}); see {log_dir / (task + '.log')}")
        return json.loads(output_path.read_text())


def prepare_bench_database(environment: dict[str, str]) -> None:
    """With DATABASE_URL given: a fresh `nardy_bench` on that server, never the real data."""
    import psycopg

    parts = urlsplit(environment["DATABASE_URL"])
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {BENCH_DATABASE}")
    environment["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{BENCH_DATABASE}"))


def wait_healthy(port: int, process: subprocess.Popen, timeout: float) -> None:
    processes.wait_until(
        lambda: processes.http_ok(f"http://127.0.0.1:{port}/healthz"),
        timeout=timeout, what=f"Daphne on {port} (/healthz)", processes=process, interval=0.3,
    )  # fmt: skip


def consistency(result: dict, database: dict) -> tuple[int, list[str]]:
    """Matches whose every socket ends on PostgreSQL's version and board, and the first few
    that do not."""
    consistent = 0
    inconsistent: list[str] = []
    for match_id, sockets in result["finals"].items():
        stored = database.get(match_id)
        seen = {(s["version"], tuple(s["board"] or ())) for s in sockets}
        if stored is not None:
            seen.add((stored["version"], tuple(stored["board"] or ())))
        if len(seen) == 1 and stored is not None and not any(s["closed"] for s in sockets):
            consistent += 1
        elif len(inconsistent) < 5:
            versions = [s["version"] for s in sockets]
            inconsistent.append(
                f"  match {match_id}: sockets v={versions} db v={stored and stored['version']}"
            )
    return consistent, inconsistent


def figures(arguments, result: dict, database: dict) -> dict:
    """The run's figures for a machine to read (--report; bench/live_budget.py). CPU per command
    is each process's CPU seconds during the load over the commands sent (a roll or a step): far
    steadier than latency on a shared machine."""
    rtt = sorted(result["rtt_ms"])
    commands = result["steps_sent"] + result["rolls_sent"]
    cpu = result["cpu_seconds"]
    per_command = {name: 1000 * seconds / max(1, commands) for name, seconds in cpu.items()}
    per_command["daphne"] = sum(v for k, v in per_command.items() if k.startswith("daphne-"))
    elapsed = result["elapsed"]
    machine = result["machine_cpu_percent"] / 100 * (os.cpu_count() or 1) * elapsed
    consistent, _ = consistency(result, database)
    return {
        "matches": arguments.matches,
        "duration": arguments.duration,
        "commands": commands,
        "steps_per_second": result["steps_sent"] / elapsed,
        "p50_ms": percentile(rtt, 0.5),
        "p99_ms": percentile(rtt, 0.99),
        "deliveries_expected": result["deliveries_expected"],
        "deliveries_missing": result["deliveries_missing"],
        "errors": sum(result["errors"].values()),
        "consistent": consistent,
        "cpu_ms_per_command": per_command,
        "other_cpu_seconds": max(0.0, machine - sum(cpu.values())),
        "available_cpu_seconds": (os.cpu_count() or 1) * elapsed,
    }


def summarise(arguments, result: dict, database: dict, daphne_count: int) -> str:
    rtt = sorted(result["rtt_ms"])
    spectators = arguments.matches * arguments.spectators_per_match
    consistent, inconsistent = consistency(result, database)
    errors = result["errors"]
    elapsed = result["elapsed"]
    load = os.getloadavg()
    cpu = result["cpu_seconds"]
    daphne_cpu = {k: v for k, v in cpu.items() if k.startswith("daphne")}
    lines = [
        f"matches={arguments.matches} players={2 * arguments.matches} spectators={spectators} "
        f"daphne={daphne_count} duration={arguments.duration:g}s step-interval={arguments.step_interval:g}s",
        f"steps sent={result['steps_sent']}, steps/s={result['steps_sent'] / elapsed:.1f}, "
        f"rolls sent={result['rolls_sent']}, turns completed={result['turns']}, "
        f"games finished={result['games_finished']}",
        f"round trip ms (step sent -> opponent & spectators got the event): "
        f"p50={percentile(rtt, 0.5):.1f} p99={percentile(rtt, 0.99):.1f} "
        f"max={rtt[-1] if rtt else float('nan'):.1f} (n={len(rtt)}; "
        f"deliveries expected={result['deliveries_expected']}, missing={result['deliveries_missing']})",
        f"errors={sum(errors.values())} (by code: {errors}), "
        f"unexpected closes={sum(result['unexpected_closes'].values())} {result['unexpected_closes'] or ''}"
        f", connect failures={sum(result['connect_failures'].values())} {result['connect_failures'] or ''}"
        f", resyncs={result['resyncs']}, stalls={result['stalls']}",
        f"consistent matches: {consistent}/{arguments.matches}",
        *inconsistent,
        f"sockets={result['sockets']} opened in {result['connect_seconds']:.1f} s "
        f"(connect p50={percentile(result['connect_ms'], 0.5):.0f} ms "
        f"max={percentile(result['connect_ms'], 1.0):.0f} ms)",
        f"machine: nproc={os.cpu_count()} loadavg={load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
        f"cpu busy during load={result['machine_cpu_percent']:.0f}%",
        "cpu seconds during load (% of one core): "
        + ", ".join(f"{k}={v:.1f}s ({100 * v / elapsed:.0f}%)" for k, v in sorted(cpu.items())),
    ]
    ours = sum(cpu.values())
    machine = result["machine_cpu_percent"] / 100 * (os.cpu_count() or 1) * elapsed
    lines.append(f"other processes on the machine (not started here) used ~{max(0.0, machine - ours):.0f} cpu-s "
                 f"of {(os.cpu_count() or 1) * elapsed:.0f} available")  # fmt: skip
    if daphne_cpu:
        lines.append(f"daphne total cpu={sum(daphne_cpu.values()):.1f}s "
                     f"({100 * sum(daphne_cpu.values()) / elapsed:.0f}% of one core)")  # fmt: skip
    per_command = figures(arguments, result, database)["cpu_ms_per_command"]
    lines.append(
        f"cpu ms per command ({result['steps_sent'] + result['rolls_sent']} rolls and steps): "
        + ", ".join(f"{k}={v:.2f}" for k, v in sorted(per_command.items()))
    )
    return "\n".join(lines)


def orchestrate(arguments) -> int:
    from config.embedded import EmbeddedServices

    nofile = raise_nofile_limit()
    sockets_needed = arguments.matches * (2 + arguments.spectators_per_match)
    if nofile[0] < sockets_needed + 200:
        log.warning("RLIMIT_NOFILE %s is low for %d sockets", nofile, sockets_needed)
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(4)
    given_database = bool(os.environ.get("DATABASE_URL"))
    children = Children(LOG_DIR, grace=STOP_GRACE)
    work = Path(tempfile.mkdtemp(prefix="bench-run-"))
    try:
        with EmbeddedServices(None) as services:
            environment = dict(os.environ)
            if given_database:
                prepare_bench_database(environment)
            environment["REDIS_PREFIX"] = f"nardy-bench-{token}"
            environment["CELERY_QUEUE"] = f"nardy-bench-{token}"
            environment["DATABASE_POOL_MAX"] = str(arguments.pool_max)
            environment["DATABASE_POOL_MIN"] = str(min(2, arguments.pool_max))
            environment["DJANGO_SETTINGS_MODULE"] = "config.settings"
            environment["PYTHONUNBUFFERED"] = "1"
            # Every client socket comes from 127.0.0.1: no per-address cap on this one machine.
            environment.setdefault("SOCKETS_PER_ADDRESS", "0")
            environment.setdefault("DEBUG", "1")
            environment.setdefault("LOG_LEVEL", "WARNING")

            started = time.monotonic()
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                           cwd=ROOT, env=environment, check=True)  # fmt: skip
            log.info("migrated in %.1f s", time.monotonic() - started)
            started = time.monotonic()
            plan_matches = run_django_task(
                "setup",
                {
                    "matches": arguments.matches,
                    "prefix": f"b{token}u",
                    "auto_roll": arguments.auto_roll,
                },
                environment,
                600,
            )["matches"]
            log.info("setup: %d matches in %.1f s", len(plan_matches), time.monotonic() - started)

            ports = [free_port() for _ in range(arguments.daphne_processes)]
            watch: dict[str, int] = {}
            for index, port in enumerate(ports):
                process = children.start(
                    f"daphne-{index}",
                    [sys.executable, "-m", "config.server", "-b", "127.0.0.1", "-p", str(port),
                     "web.asgi:application"],
                    environment,
                )  # fmt: skip
                watch[f"daphne-{index}"] = process.pid
            worker = children.start(
                "worker",
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
                 "--without-gossip", "--without-mingle", "--hostname", f"bench-{token}@%h"],
                environment,
            )  # fmt: skip
            watch["worker"] = worker.pid
            for name, server in (("postgres", services.postgres), ("redis", services.redis)):
                if server is not None and server.pid is not None:
                    watch[name] = server.pid
            for index, port in enumerate(ports):
                wait_healthy(port, children.processes[f"daphne-{index}"], START_TIMEOUT)
            log.info("servers healthy on ports %s", ports)

            plan = {
                "matches": plan_matches,
                "ports": ports,
                "spectators_per_match": arguments.spectators_per_match,
                "step_interval": arguments.step_interval,
                "auto_roll": arguments.auto_roll,
                "duration": arguments.duration,
                "settle": SETTLE_SECONDS,
                "connect_timeout": arguments.connect_timeout,
                "connect_concurrency": arguments.connect_concurrency,
                "watch_pids": watch,
                "route_by_match": arguments.route_by_match,
                "ack_events": not arguments.plain_acks,
            }
            plan_path, result_path = work / "plan.json", work / "result.json"
            plan_path.write_text(json.dumps(plan))
            client = children.start(
                "client",
                [sys.executable, "-m", "bench.live_load", "--client", str(plan_path), str(result_path)],
                environment,
            )  # fmt: skip
            limit = arguments.connect_timeout + arguments.duration + SETTLE_SECONDS + 60
            try:
                code = client.wait(limit)
            except subprocess.TimeoutExpired:
                log.error("the client did not finish within %.0f s", limit)
                code = -1
            children.stop(["client"])
            if code != 0 or not result_path.exists():
                log.error("the client failed (exit %s); see %s", code, LOG_DIR / "client.log")
                return 1
            result = json.loads(result_path.read_text())
            for name, process in children.processes.items():
                if process.poll() is not None:
                    log.error("%s exited early with %s; see %s", name, process.returncode,
                              LOG_DIR / f"{name}.log")  # fmt: skip
            database = run_django_task(
                "verify", {"match_ids": [m["id"] for m in plan_matches]}, environment, 120
            )
            Path(LOG_DIR / "last-result.json").write_text(json.dumps({**result, "rtt_ms": None}))
            print(summarise(arguments, result, database, len(ports)), flush=True)
            if arguments.report:
                Path(arguments.report).write_text(
                    json.dumps(figures(arguments, result, database), indent=1)
                )
            if result["notes"]:
                print(f"(first client notes in {LOG_DIR / 'client.log'})", flush=True)
            return 0
    except Stop as reason:
        log.warning("stopping (%s)", reason)
        return 130
    finally:
        processes.ignore_signals()
        children.stop()
        children.close_logs()
        import shutil

        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    parser = argparse.ArgumentParser(
        prog="python -m bench.live_load", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--spectators-per-match", type=int, default=1)
    parser.add_argument("--step-interval", type=float, default=2.0)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--daphne-processes", type=int, default=2)
    parser.add_argument(
        "--auto-roll", action="store_true",
        help="players roll automatically (the server rolls as their turn begins: no roll commands)",
    )  # fmt: skip
    parser.add_argument(
        "--plain-acks",
        action="store_true",
        help="players' sockets without ?ack_events=1: the sender's events come through the hub, "
        "not in its acks (docs/protocol.md), for comparing the two",
    )
    parser.add_argument(
        "--route-by-match", action="store_true",
        help="every socket of a match on one Daphne (default: round robin by socket)",
    )  # fmt: skip
    parser.add_argument("--pool-max", type=int, default=10, help="DATABASE_POOL_MAX per process")
    parser.add_argument("--connect-timeout", type=float, default=300.0)
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument("--report", help="also write the run's figures as JSON to this file")
    parser.add_argument("--client", nargs=2, metavar=("PLAN", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument(
        "--django-task", nargs=3, metavar=("TASK", "IN", "OUT"), help=argparse.SUPPRESS
    )
    arguments = parser.parse_args(argv)
    if arguments.client:
        return client_main(*arguments.client)
    if arguments.django_task:
        return django_task(*arguments.django_task)
    if arguments.matches < 1 or arguments.daphne_processes < 1 or arguments.step_interval < 0.25:
        parser.error("need --matches >= 1, --daphne-processes >= 1, --step-interval >= 0.25")
    processes.stop_on_signals()
    try:
        return orchestrate(arguments)
    except Stop:
        return 130


if __name__ == "__main__":
    sys.exit(main())
