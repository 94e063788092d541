"""The load generator's sockets: players and spectators of live matches over ws:// or wss://.

Shared by bench/live_load.py (load through Daphne), bench/topology.py (the production topology
behind nginx: tests/integration/test_production.py, the restart drills) and bench/soak.py.
A socket that closes unexpectedly reconnects when the plan says so (`reconnect`), and resyncs by
version from the snapshot the server sends on connect (docs/protocol.md).

Step accounting (the drills' "no acknowledged step lost or applied twice"): per match, steps
acknowledged, and steps in doubt (sent, then the socket closed before the ack or error came).
PostgreSQL must then hold between `acked` and `acked + in_doubt` player steps.
"""

from __future__ import annotations

import asyncio
import random
import ssl
import sys
import time
from collections import Counter

import orjson

STALL_SECONDS = 15.0
RECONNECT_FIRST_DELAY = 0.2
RECONNECT_MAX_DELAY = 2.0
SNAPSHOT_RETRY_SECONDS = 3.0
ACK_EVENT_WAIT_SECONDS = 2.0


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def client_ssl_context(plan: dict) -> ssl.SSLContext | None:
    """For wss:// endpoints: trust the plan's CA file (the topology's self-signed certificate)."""
    if not plan.get("ca_file"):
        return None
    return ssl.create_default_context(cafile=plan["ca_file"])


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
        self.reconnects = 0
        self.bounces = 0  # sockets closed on purpose and opened again
        self.ack_resyncs = 0  # snapshots asked for because an acknowledged event did not come
        # Seconds from an unexpected close to the next snapshot on the new socket.
        self.reconnect_seconds: list[float] = []


class MatchTrack:
    def __init__(self, match_id: int, cookies: list[str]) -> None:
        self.id = match_id
        self.cookies = cookies
        self.sockets: list[Player] = []
        # version of the step event -> [sent at, step, sender seat, receivers still expected]
        self.pending: dict[int, list] = {}
        self.steps_acked = 0
        self.steps_in_doubt = 0
        self.last_ack_at = 0.0  # time.monotonic() of the last acknowledged step or roll
        self.last_ack_version = 0


class Player:
    """One socket: a player (seat 0/1) or a spectator (seat None)."""

    def __init__(
        self, client: LoadClient, match: MatchTrack, seat: int | None, endpoint: str
    ) -> None:
        self.client = client
        self.match = match
        self.seat = seat
        self.endpoint = endpoint  # ws://127.0.0.1:8001 or wss://localhost:8443
        # Commands sent and not yet answered: id -> (type, version).
        self.unanswered: dict[str, tuple[str, int]] = {}
        self.upstream: str | None = None  # nginx's X-Nardy-Upstream header, when it sends one
        self.closed_at: float | None = None
        self.snapshot_request: str | None = None  # id of the last snapshot asked for
        self.bouncing = False
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
        origin = self.endpoint.replace("ws", "http", 1)
        self.ws = await connect(
            # As the site's page does: acks carry the command's own events (docs/protocol.md),
            # unless bench.live_load --plain-acks.
            f"{self.endpoint}/ws/matches/{self.match.id}/{self.client.match_query}",
            origin=origin,
            additional_headers=headers,
            open_timeout=60,
            ping_interval=None,  # Daphne pings; a slow client pong must not be our close
            close_timeout=5,
            ssl=self.client.ssl_context if self.endpoint.startswith("wss:") else None,
        )
        self.upstream = self.ws.response.headers.get("X-Nardy-Upstream")
        self.client.stats.connect_ms.append((time.perf_counter() - started) * 1000)
        self.closed = False
        self.reader = asyncio.create_task(self.read())

    async def send(self, payload: dict) -> None:
        self.command_number += 1
        payload["id"] = f"c{self.command_number}"
        if payload["type"] in ("step", "roll"):
            self.unanswered[payload["id"]] = (payload["type"], payload["version"])
        elif payload["type"] == "snapshot":
            self.snapshot_request = payload["id"]
        await self.ws.send(orjson.dumps(payload).decode())

    def expect_version(self, version: int):
        async def check() -> None:
            if self.version < version and not self.awaiting_snapshot and not self.closed:
                self.client.stats.ack_resyncs += 1
                self.acted_version = None
                await self.request_snapshot()

        return check

    async def bounce(self) -> bool:
        """Close this socket as a browser tab would, and come back (bench/soak.py's churn)."""
        if self.closed or self.closing or self.bouncing or self.ws is None:
            return False
        self.bouncing = True
        self.client.stats.bounces += 1
        await self.ws.close()
        return True

    def later(self, delay: float, action) -> None:
        async def run() -> None:
            await asyncio.sleep(delay)
            await action()

        task = asyncio.create_task(run())
        self.actions.add(task)
        task.add_done_callback(self.actions.discard)

    def answered(self, message: dict) -> tuple[str, int] | None:
        return self.unanswered.pop(message.get("id"), None)

    async def reconnect(self) -> None:
        """Open a new socket after an unexpected close, backing off up to RECONNECT_MAX_DELAY."""
        delay = RECONNECT_FIRST_DELAY
        while not self.closing:
            await asyncio.sleep(delay)
            try:
                self.awaiting_snapshot = True  # the server's first message is a snapshot
                self.first_snapshot.clear()
                await self.connect()
                self.client.stats.reconnects += 1
                return
            except Exception as error:  # noqa: BLE001 - retried until the run ends
                self.client.note(f"{self.role} match {self.match.id}: reconnect failed: {error!r}")
                delay = min(RECONNECT_MAX_DELAY, delay * 2)

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
                    if self.closed_at is not None:
                        stats.reconnect_seconds.append(time.monotonic() - self.closed_at)
                        self.closed_at = None
                        self.acted_version = None
                    if self.seat is not None and message["you"]["seat"] != self.seat:
                        stats.errors["bench_wrong_seat"] += 1
                    self.first_snapshot.set()
                    self.maybe_act()
                elif kind == "error":
                    self.answered(message)  # an error never changes anything
                    stats.errors[message.get("code", "?")] += 1
                    self.client.note(f"{self.role} match {self.match.id}: error {message}")
                    if message.get("id") is not None and message["id"] == self.snapshot_request:
                        # The snapshot itself failed (the database is out of reach): ask again
                        # later, within the server's per-minute allowance of snapshot requests.
                        self.awaiting_snapshot = False
                        self.later(SNAPSHOT_RETRY_SECONDS, self.request_snapshot)
                    elif self.seat is not None and not self.closing:
                        self.acted_version = None
                        await self.request_snapshot()
                elif kind == "ack":
                    stats.acks += 1
                    for event in message.get("events", ()):
                        self.on_event(event, now)
                    command = self.answered(message)
                    if command is not None:
                        self.match.last_ack_at = time.monotonic()
                        self.match.last_ack_version = max(
                            self.match.last_ack_version, message["version"]
                        )
                        if command[0] == "step":
                            self.match.steps_acked += 1
                    # As static/js/match.js does: the event of an acknowledged command lost in
                    # a Redis restart leaves no gap to notice, so resync if it does not come.
                    self.later(ACK_EVENT_WAIT_SECONDS, self.expect_version(message["version"]))
        except ConnectionClosed:
            pass
        except Exception as error:  # noqa: BLE001 - counted, reported
            stats.errors[f"bench_client_{type(error).__name__}"] += 1
            self.client.note(f"{self.role} match {self.match.id}: reader failed: {error!r}")
        finally:
            self.closed = True
            self.first_snapshot.set()
            # Sent, never answered: applied or not, only PostgreSQL knows.
            self.match.steps_in_doubt += sum(1 for c in self.unanswered.values() if c[0] == "step")
            self.unanswered.clear()
            if self.bouncing:  # closed on purpose (connection churn): back at once
                self.bouncing = False
                self.closed_at = time.monotonic()
                self.later(0.0, self.reconnect)
            elif not self.closing:
                code = getattr(self.ws, "close_code", None)
                stats.unexpected_closes[str(code)] += 1
                self.client.note(f"{self.role} match {self.match.id}: closed, code {code}")
                if self.client.plan.get("reconnect"):
                    self.closed_at = time.monotonic()
                    self.later(0.0, self.reconnect)

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
            if self.bouncing or self.closed:
                return  # this socket was closed on purpose (churn) under the send: no error
            stats.errors[f"bench_send_{type(error).__name__}"] += 1

    def final(self) -> dict:
        game = (self.state or {}).get("game") or {}
        return {
            "role": self.role,
            "version": self.version,
            "board": game.get("board"),
            "closed": self.closed,
            "upstream": self.upstream,
        }


class LoadClient:
    def __init__(self, plan: dict) -> None:
        self.plan = plan
        self.match_query = "?ack_events=1" if plan.get("ack_events", True) else ""
        self.stats = Stats()
        self.step_interval = plan["step_interval"]
        self.auto_roll = plan["auto_roll"]
        self.stopping = False
        self.load_started = 0.0
        self.starts: dict[int, float] = {}
        self.notes: list[str] = []
        self.matches = [MatchTrack(m["id"], m["cookies"]) for m in plan["matches"]]
        self.ssl_context = client_ssl_context(plan)
        # Another thread (bench/topology.py's drills) may end the run early: finish_now().
        self.deadline = float("inf")
        self.ready = asyncio.Event()  # every socket open and holding a snapshot
        self.sockets: list[Player] = []

    def finish_now(self) -> None:
        self.deadline = 0.0

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

        # "endpoints": ws:// or wss:// bases; "ports": Daphne ports on 127.0.0.1 (plain ws://).
        endpoints = self.plan.get("endpoints") or [
            f"ws://127.0.0.1:{port}" for port in self.plan["ports"]
        ]
        spectators = self.plan["spectators_per_match"]
        all_sockets: list[Player] = self.sockets
        # Round robin by socket, as a balancer without affinity spreads them (the two players of
        # a match on different processes); "route_by_match": every socket of a match on one
        # process, as a balancer hashing the match's path would place them.
        by_match = self.plan.get("route_by_match", False)
        index = 0
        for number, match in enumerate(self.matches):
            for seat in [0, 1] + [None] * spectators:
                endpoint = endpoints[(number if by_match else index) % len(endpoints)]
                player = Player(self, match, seat, endpoint)
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
        self.deadline = min(self.deadline, self.load_started + self.plan["duration"])
        self.ready.set()
        last_print = time.monotonic()
        steps_at_print = 0
        while time.monotonic() < self.deadline:
            await asyncio.sleep(min(0.2, max(0.0, self.deadline - time.monotonic())))
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
            "reconnects": stats.reconnects,
            "bounces": stats.bounces,
            "ack_resyncs": stats.ack_resyncs,
            "reconnect_seconds": sorted(stats.reconnect_seconds),
            "match_steps": {str(m.id): [m.steps_acked, m.steps_in_doubt] for m in self.matches},
            "notes": self.notes,
        }
