"""Live load benchmark: N matches played concurrently through real Daphne + Redis + PostgreSQL.

    .venv/bin/python -m bench.live_load --matches 100 [--spectators-per-match 1]
        [--step-interval 2.0] [--duration 60] [--daphne-processes 2] [--pool-max 10] [--auto-roll]

What it does (issue 4, "Benchmark"; protocol in docs/protocol.md):

1. Servers: with DATABASE_URL / REDIS_URL unset, throwaway embedded PostgreSQL + Redis
   (config.embedded.EmbeddedServices(None)); with them set, a separate database (`nardy_bench`,
   dropped and created afresh) and a unique REDIS_PREFIX / CELERY_QUEUE. Then `manage.py migrate`.
2. Setup (a Django child process): 2N users, N casual untimed matches (match_create +
   match_accept), one session cookie per user (django.test.Client.force_login).
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
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# The load generator shares the machine with the servers it measures: its own CPU is taken from
# theirs. uvloop and orjson cut the client's CPU per command by a third (1.08 -> 0.73 ms).
import orjson
import uvloop

ROOT = Path(__file__).resolve().parent.parent
LOG_DIR = Path(os.environ.get("BENCH_LOG_DIR", "/tmp/bench-logs"))
BENCH_DATABASE = "nardy_bench"
START_TIMEOUT = 90.0
STOP_GRACE = 10.0
SETTLE_SECONDS = 2.0
STALL_SECONDS = 15.0

log = logging.getLogger("bench")


class Stop(Exception):
    pass


def _raise_stop(signum, frame):
    raise Stop(signal.Signals(signum).name)


def raise_nofile_limit() -> tuple[int, int]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


# =================================================================================================
# Django tasks (run in a child process: `python -m bench.live_load --django-task setup|verify`)
# =================================================================================================


def django_task(task: str, input_path: str, output_path: str) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    payload = json.loads(Path(input_path).read_text())
    if task == "setup":
        result = _setup_matches(payload["matches"], payload["prefix"], payload["auto_roll"])
    elif task == "verify":
        result = _read_matches(payload["match_ids"])
    else:
        raise SystemExit(f"unknown task {task}")
    Path(output_path).write_text(json.dumps(result))
    return 0


def _setup_matches(count: int, prefix: str, auto_roll: bool) -> dict:
    from allauth.account.models import EmailAddress
    from django.db import transaction
    from django.test import Client

    from accounts.models import User
    from games import services

    started = time.monotonic()
    users = []
    for index in range(2 * count):
        name = f"{prefix}{index}"
        user = User(username=name, email=f"{name}@bench.invalid", auto_roll=auto_roll)
        user.set_unusable_password()  # no password hashing: 1,000 users in seconds
        users.append(user)
    with transaction.atomic():
        User.objects.bulk_create(users, batch_size=500)
    users = list(User.objects.filter(username__startswith=prefix).order_by("id"))
    EmailAddress.objects.bulk_create(
        [EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users],
        batch_size=500,
    )
    print(f"users: {len(users)} in {time.monotonic() - started:.1f} s", flush=True)
    cookies = {}
    for user in users:
        client = Client()
        client.force_login(user)
        cookies[user.pk] = client.cookies["sessionid"].value
    print(f"sessions: {len(cookies)} in {time.monotonic() - started:.1f} s", flush=True)
    matches = []
    for index in range(count):
        creator, opponent = users[2 * index], users[2 * index + 1]
        match = services.match_create(
            creator=creator, rated=False, turn_seconds=None, rule_set_name="traditional"
        )
        services.match_accept(user=opponent, match_id=match.pk)
        matches.append({"id": match.pk, "cookies": [cookies[creator.pk], cookies[opponent.pk]]})
    print(f"matches: {len(matches)} in {time.monotonic() - started:.1f} s", flush=True)
    return {"matches": matches}


def _read_matches(match_ids: list[int]) -> dict:
    from games.models import Match

    result = {}
    for match in Match.objects.filter(pk__in=match_ids):
        game = match.games.order_by("-number").first()
        result[str(match.pk)] = {
            "version": match.version,
            "status": match.status,
            "board": list(game.board) if game is not None else None,
            "games": match.games.count(),
        }
    return result


# =================================================================================================
# The load generator (its own process: `python -m bench.live_load --client plan.json out.json`)
# =================================================================================================


class Stats:
    def __init__(self) -> None:
        self.rtt_ms: list[float] = []
        self.errors: Counter[str] = Counter()
        self.unexpected_closes: Counter[str] = Counter()
        self.connect_failures: Counter[str] = Counter()
        self.steps_sent = 0
        self.rolls_sent = 0
        self.acks = 0
        self.turns = 0
        self.games_finished = 0
        self.resyncs = 0
        self.stalls = 0
        self.deliveries_expected = 0
        self.deliveries_seen = 0
        self.connect_ms: list[float] = []


class MatchTrack:
    def __init__(self, match_id: int, cookies: list[str]) -> None:
        self.id = match_id
        self.cookies = cookies
        self.sockets: list[Player] = []
        # version of the step event -> [sent at, step, sender seat, receivers still expected]
        self.pending: dict[int, list] = {}


class Player:
    """One socket: a player (seat 0/1) or a spectator (seat None)."""

    def __init__(self, client: LoadClient, match: MatchTrack, seat: int | None, port: int) -> None:
        self.client = client
        self.match = match
        self.seat = seat
        self.port = port
        self.ws = None
        self.version = -1
        self.state: dict | None = None
        self.awaiting_snapshot = False
        self.acted_version: int | None = None
        self.closing = False
        self.closed = False
        self.first_snapshot = asyncio.Event()
        self.reader: asyncio.Task | None = None
        self.actions: set[asyncio.Task] = set()
        self.command_number = 0

    @property
    def role(self) -> str:
        return "spectator" if self.seat is None else f"player{self.seat}"

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        headers = {}
        if self.seat is not None:
            headers["Cookie"] = f"sessionid={self.match.cookies[self.seat]}"
        started = time.perf_counter()
        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/ws/matches/{self.match.id}/",
            origin=f"http://127.0.0.1:{self.port}",
            additional_headers=headers,
            open_timeout=60,
            ping_interval=None,  # Daphne pings; a slow client pong must not be our close
            close_timeout=5,
        )
        self.client.stats.connect_ms.append((time.perf_counter() - started) * 1000)
        self.reader = asyncio.create_task(self.read())

    async def send(self, payload: dict) -> None:
        self.command_number += 1
        payload["id"] = f"c{self.command_number}"
        await self.ws.send(orjson.dumps(payload).decode())

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        stats = self.client.stats
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                message = orjson.loads(raw)
                kind = message.get("type")
                if kind == "event":
                    self.on_event(message, now)
                elif kind == "snapshot":
                    self.version = message["version"]
                    self.state = message["state"]
                    self.awaiting_snapshot = False
                    if self.seat is not None and message["you"]["seat"] != self.seat:
                        stats.errors["bench_wrong_seat"] += 1
                    self.first_snapshot.set()
                    self.maybe_act()
                elif kind == "error":
                    stats.errors[message.get("code", "?")] += 1
                    self.client.note(f"{self.role} match {self.match.id}: error {message}")
                    if self.seat is not None and not self.closing:
                        self.acted_version = None
                        await self.request_snapshot()
                elif kind == "ack":
                    stats.acks += 1
        except ConnectionClosed:
            pass
        except Exception as error:  # noqa: BLE001 - counted, reported
            stats.errors[f"bench_client_{type(error).__name__}"] += 1
            self.client.note(f"{self.role} match {self.match.id}: reader failed: {error!r}")
        finally:
            self.closed = True
            self.first_snapshot.set()
            if not self.closing:
                code = getattr(self.ws, "close_code", None)
                stats.unexpected_closes[str(code)] += 1
                self.client.note(f"{self.role} match {self.match.id}: closed, code {code}")

    def on_event(self, message: dict, now: float) -> None:
        stats = self.client.stats
        version = message["version"]
        if message.get("kind") == "step":
            pending = self.match.pending.get(version)
            if pending is not None and pending[2] != self.seat:
                sent_at, step, _, waiting = pending
                if message["detail"].get("step") == step and self in waiting:
                    waiting.discard(self)
                    stats.rtt_ms.append((now - sent_at) * 1000)
                    stats.deliveries_seen += 1
        if self.awaiting_snapshot:
            return
        if version != self.version + 1:
            stats.resyncs += 1
            asyncio.create_task(self.request_snapshot())
            return
        self.version = version
        # Events carry `state.match` only when it changed (docs/protocol.md).
        self.state = {"match": self.state["match"], **message["state"]}
        if self.seat == 0:  # count each match's turns once
            if message["kind"] == "turn":
                stats.turns += 1
            elif message["kind"] == "game_over":
                stats.games_finished += 1
        self.maybe_act()

    async def request_snapshot(self) -> None:
        if self.awaiting_snapshot or self.closed:
            return
        self.awaiting_snapshot = True
        try:
            await self.send({"type": "snapshot"})
        except Exception:  # noqa: BLE001 - the reader reports the close
            pass

    def maybe_act(self) -> None:
        if self.seat is None or self.client.stopping or self.state is None:
            return
        match, game = self.state["match"], self.state.get("game")
        if match["status"] != "active" or game is None:
            return
        side = next(p["side"] for p in match["players"] if p["seat"] == self.seat)
        if game["turn"] != side or self.acted_version == self.version:
            return
        if game["phase"] == "roll":
            # With auto-roll the server rolls as the turn begins; roll by hand only if it has not
            # (a match's first turn).
            delay = self.client.step_interval if self.client.auto_roll else 0.0
        elif game["phase"] == "move" and game["legal_steps"]:
            interval = self.client.step_interval
            delay = interval * random.uniform(0.8, 1.2)
        else:
            return
        delay = max(delay, self.client.start_of(self) - time.monotonic())
        self.acted_version = self.version
        task = asyncio.create_task(self.act(self.version, delay))
        self.actions.add(task)
        task.add_done_callback(self.actions.discard)

    async def act(self, version: int, delay: float) -> None:
        stats = self.client.stats
        try:
            await asyncio.sleep(delay)
            if (
                self.client.stopping
                or self.closed
                or self.version != version
                or self.awaiting_snapshot
            ):
                if self.version == version:
                    self.acted_version = None
                return
            game = self.state["game"]
            if game["phase"] == "roll":
                await self.send({"type": "roll", "version": version})
                stats.rolls_sent += 1
            else:
                step = random.choice(game["legal_steps"])
                receivers = {s for s in self.match.sockets if s is not self}
                self.match.pending[version + 1] = [time.perf_counter(), step, self.seat, receivers]
                stats.deliveries_expected += len(receivers)
                await self.send({"type": "step", "version": version, "step": step})
                stats.steps_sent += 1
            # Watchdog: the answer should move the version; if not, resynchronise.
            deadline = time.monotonic() + STALL_SECONDS
            while time.monotonic() < deadline and not self.client.stopping:
                if self.version != version or self.closed:
                    return
                await asyncio.sleep(0.5)
            if self.version == version and not self.client.stopping and not self.closed:
                stats.stalls += 1
                self.client.note(f"{self.role} match {self.match.id}: no answer at v{version}")
                self.acted_version = None
                await self.request_snapshot()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - counted; the reader reports the close
            stats.errors[f"bench_send_{type(error).__name__}"] += 1

    def final(self) -> dict:
        game = (self.state or {}).get("game") or {}
        return {
            "role": self.role,
            "version": self.version,
            "board": game.get("board"),
            "closed": self.closed,
        }


class LoadClient:
    def __init__(self, plan: dict) -> None:
        self.plan = plan
        self.stats = Stats()
        self.step_interval = plan["step_interval"]
        self.auto_roll = plan["auto_roll"]
        self.stopping = False
        self.load_started = 0.0
        self.starts: dict[int, float] = {}
        self.notes: list[str] = []
        self.matches = [MatchTrack(m["id"], m["cookies"]) for m in plan["matches"]]

    def note(self, text: str) -> None:
        if len(self.notes) < 200:
            self.notes.append(text)
        if len(self.notes) <= 30:
            print(f"[client] {text}", file=sys.stderr, flush=True)

    def start_of(self, player: Player) -> float:
        # Players begin at random moments within the first step interval (no thundering herd).
        key = id(player)
        if key not in self.starts:
            self.starts[key] = self.load_started + random.uniform(0, self.step_interval)
        return self.starts[key]

    async def run(self) -> dict:
        import psutil

        ports = self.plan["ports"]
        spectators = self.plan["spectators_per_match"]
        all_sockets: list[Player] = []
        index = 0
        for match in self.matches:
            for seat in [0, 1] + [None] * spectators:
                player = Player(self, match, seat, ports[index % len(ports)])
                index += 1
                match.sockets.append(player)
                all_sockets.append(player)

        # Connect with bounded concurrency; nobody acts until everyone has a snapshot.
        self.stopping = True
        gate = asyncio.Semaphore(self.plan.get("connect_concurrency", 50))

        async def open_one(player: Player) -> None:
            async with gate:
                try:
                    await player.connect()
                    await asyncio.wait_for(player.first_snapshot.wait(), 60)
                except Exception as error:  # noqa: BLE001
                    self.stats.connect_failures[type(error).__name__] += 1
                    self.note(f"{player.role} match {player.match.id}: connect failed: {error!r}")

        connect_started = time.monotonic()
        await asyncio.wait_for(
            asyncio.gather(*(open_one(p) for p in all_sockets)), self.plan["connect_timeout"]
        )
        connect_seconds = time.monotonic() - connect_started
        print(f"[client] {len(all_sockets)} sockets open in {connect_seconds:.1f} s", file=sys.stderr,
              flush=True)  # fmt: skip

        watched = {}
        for name, pid in self.plan.get("watch_pids", {}).items():
            try:
                watched[name] = psutil.Process(pid)
            except psutil.Error:
                pass
        watched["client"] = psutil.Process()

        def cpu_now() -> dict[str, float]:
            result = {}
            for name, process in watched.items():
                try:
                    total = sum(process.cpu_times()[:2])
                    if name.startswith(("worker", "postgres")):
                        for child in process.children(recursive=True):
                            try:
                                total += sum(child.cpu_times()[:2])
                            except psutil.Error:
                                pass
                    result[name] = total
                except psutil.Error:
                    pass
            return result

        cpu_before = cpu_now()
        psutil.cpu_percent(None)
        self.load_started = time.monotonic()
        self.stopping = False
        for player in all_sockets:
            if player.seat is not None and player.state is not None:
                player.maybe_act()
        deadline = self.load_started + self.plan["duration"]
        last_print = time.monotonic()
        steps_at_print = 0
        while time.monotonic() < deadline:
            await asyncio.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
            if time.monotonic() - last_print >= 10:
                recent = sorted(self.stats.rtt_ms[-2000:])
                print(
                    f"[client] t={time.monotonic() - self.load_started:.0f}s "
                    f"steps={self.stats.steps_sent} (+{self.stats.steps_sent - steps_at_print}) "
                    f"rtt p50={percentile(recent, .5):.1f} p99={percentile(recent, .99):.1f} ms "
                    f"errors={sum(self.stats.errors.values())} closes={sum(self.stats.unexpected_closes.values())}",
                    file=sys.stderr, flush=True,
                )  # fmt: skip
                last_print, steps_at_print = time.monotonic(), self.stats.steps_sent
        self.stopping = True
        elapsed = time.monotonic() - self.load_started
        cpu_after = cpu_now()
        machine_cpu = psutil.cpu_percent(None)
        await asyncio.sleep(self.plan["settle"])

        finals = {str(m.id): [s.final() for s in m.sockets] for m in self.matches}
        for player in all_sockets:
            player.closing = True
            for task in list(player.actions):
                task.cancel()

        async def close_one(player: Player) -> None:
            if player.ws is not None:
                try:
                    await asyncio.wait_for(player.ws.close(), 10)
                except Exception:  # noqa: BLE001
                    pass

        await asyncio.gather(*(close_one(p) for p in all_sockets))
        readers = [p.reader for p in all_sockets if p.reader is not None]
        if readers:
            await asyncio.wait(readers, timeout=10)
        stats = self.stats
        missing = sum(len(p[3]) for m in self.matches for p in m.pending.values())
        return {
            "sockets": len(all_sockets),
            "connect_seconds": connect_seconds,
            "connect_ms": sorted(stats.connect_ms),
            "elapsed": elapsed,
            "rtt_ms": stats.rtt_ms,
            "errors": dict(stats.errors),
            "unexpected_closes": dict(stats.unexpected_closes),
            "connect_failures": dict(stats.connect_failures),
            "steps_sent": stats.steps_sent,
            "rolls_sent": stats.rolls_sent,
            "acks": stats.acks,
            "turns": stats.turns,
            "games_finished": stats.games_finished,
            "resyncs": stats.resyncs,
            "stalls": stats.stalls,
            "deliveries_expected": stats.deliveries_expected,
            "deliveries_seen": stats.deliveries_seen,
            "deliveries_missing": missing,
            "cpu_seconds": {k: cpu_after[k] - cpu_before.get(k, 0.0) for k in cpu_after},
            "machine_cpu_percent": machine_cpu,
            "finals": finals,
            "notes": self.notes,
        }


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


class Children:
    """Child processes in their own process groups, stopped SIGTERM -> SIGKILL."""

    def __init__(self) -> None:
        self.processes: dict[str, subprocess.Popen] = {}
        self.logs: list = []

    def start(self, name: str, command: list[str], environment: dict[str, str]) -> subprocess.Popen:
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        log_file = open(LOG_DIR / f"{name}.log", "wb")  # noqa: SIM115 - closed in stop_all
        self.logs.append(log_file)
        process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdin=subprocess.DEVNULL, stdout=log_file,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        self.processes[name] = process
        return process

    def stop(self, names: list[str] | None = None) -> None:
        from config.launcher import stop_processes

        chosen = {n: p for n, p in self.processes.items() if names is None or n in names}
        stop_processes(chosen, grace=STOP_GRACE)
        for name in chosen:
            del self.processes[name]

    def close_logs(self) -> None:
        for handle in self.logs:
            handle.close()


def run_django_task(task: str, payload: dict, environment: dict[str, str], timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        input_path, output_path = Path(folder) / "in.json", Path(folder) / "out.json"
        input_path.write_text(json.dumps(payload))
        with open(LOG_DIR / f"{task}.log", "wb") as log_file:
            process = subprocess.Popen(
                [sys.executable, "-m", "bench.live_load", "--django-task", task,
                 str(input_path), str(output_path)],
                cwd=ROOT, env=environment, stdout=log_file, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
            try:
                code = process.wait(timeout)
            except (subprocess.TimeoutExpired, Stop):
                process.kill()
                process.wait()
                raise
        if code != 0:
            raise RuntimeError(f"{task} failed (exit {code}); see {LOG_DIR / (task + '.log')}")
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
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Daphne on {port} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
                if answer.status == 200:
                    return
        except Exception as error:  # noqa: BLE001 - not up yet
            last = error
        time.sleep(0.3)
    raise TimeoutError(f"Daphne on {port}: /healthz not 200 within {timeout:.0f} s ({last!r})")


def summarise(arguments, result: dict, database: dict, daphne_count: int) -> str:
    rtt = sorted(result["rtt_ms"])
    spectators = arguments.matches * arguments.spectators_per_match
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
    children = Children()
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
                    [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                     "config.asgi:application"],
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
            if services.postgres is not None and services.postgres._server is not None:
                watch["postgres"] = services.postgres._server.get_pid()
            if services.redis is not None and services.redis._process is not None:
                watch["redis"] = services.redis._process.pid
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
            if result["notes"]:
                print(f"(first client notes in {LOG_DIR / 'client.log'})", flush=True)
            return 0
    except Stop as reason:
        log.warning("stopping (%s)", reason)
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
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
    parser.add_argument("--pool-max", type=int, default=10, help="DATABASE_POOL_MAX per process")
    parser.add_argument("--connect-timeout", type=float, default=300.0)
    parser.add_argument("--connect-concurrency", type=int, default=50)
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
    signal.signal(signal.SIGINT, _raise_stop)
    signal.signal(signal.SIGTERM, _raise_stop)
    try:
        return orchestrate(arguments)
    except Stop:
        return 130


if __name__ == "__main__":
    sys.exit(main())
