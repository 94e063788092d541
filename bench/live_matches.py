"""Live matches through the production topology (bench/topology.py), and what to check after.

`LiveMatches` drives bench/clients.py's players and spectators over wss:// through nginx in the
caller's event loop while the caller restarts things (tests/integration/test_production*.py,
bench/soak.py); `compare_with_database` holds what the players were told against PostgreSQL;
`metric_total` reads a figure from /metrics.
"""

from __future__ import annotations

import secrets
import time

from bench.topology import Topology


class LiveMatches:
    """Matches played through nginx by bench/clients.py's players and spectators, in this event
    loop, while the caller restarts things; sockets reconnect and resync by version.

        async with LiveMatches(topology, matches=3) as live:
            ...                      # kill something
            seconds = await live.recovered(since=fault_at)
        live.report                  # lost / doubled steps, consistency with PostgreSQL
    """

    def __init__(
        self,
        topology: Topology,
        *,
        matches: int = 3,
        spectators_per_match: int = 1,
        step_interval: float = 0.5,
        duration: float = 3600.0,
        connect_concurrency: int = 20,
        turn_seconds: int | None = None,
        length: int | None = None,
    ) -> None:
        self.topology = topology
        self.length = length
        self.matches = matches
        self.spectators_per_match = spectators_per_match
        self.step_interval = step_interval
        self.duration = duration
        self.connect_concurrency = connect_concurrency
        self.turn_seconds = turn_seconds
        self.client = None
        self.task = None
        self.match_ids: list[int] = []
        self.report: dict = {}

    async def __aenter__(self) -> LiveMatches:
        import asyncio

        from bench.clients import LoadClient

        plan_matches = (
            await asyncio.to_thread(
                self.topology.django_task,
                "setup",
                {
                    "matches": self.matches,
                    "prefix": f"p{secrets.token_hex(3)}u",
                    "auto_roll": False,
                    "turn_seconds": self.turn_seconds,
                    "length": self.length,
                },
            )
        )["matches"]
        self.match_ids = [m["id"] for m in plan_matches]
        self.client = LoadClient(
            {
                "matches": plan_matches,
                "endpoints": [self.topology.websocket_url],
                "ca_file": str(self.topology.ca_file),
                "spectators_per_match": self.spectators_per_match,
                "step_interval": self.step_interval,
                "auto_roll": False,
                "duration": self.duration,
                "settle": 2.0,
                "connect_timeout": 120,
                "connect_concurrency": self.connect_concurrency,
                "reconnect": True,
            }
        )
        self.task = asyncio.create_task(self.client.run())
        ready = asyncio.create_task(self.client.ready.wait())
        done, _ = await asyncio.wait({ready, self.task}, return_when=asyncio.FIRST_COMPLETED)
        if self.task in done:
            ready.cancel()
            self.task.result()  # raises what went wrong
            raise RuntimeError("the players finished before they started")
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.finish()

    def players(self):
        return [s for s in self.client.sockets if s.seat is not None]

    async def recovered(self, *, since: float, timeout: float = 90.0) -> float:
        """Seconds from `since` until every socket is open with a snapshot, every active match
        has an acknowledged command after `since`, and every socket of the match has reached the
        version that command made (events flow again, not only commands)."""
        import asyncio

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            sockets_back = all(
                not s.closed and not s.awaiting_snapshot and s.state is not None
                for s in self.client.sockets
            )
            playing = [
                m
                for m in self.client.matches
                if m.sockets[0].state and m.sockets[0].state["match"]["status"] == "active"
            ]
            if sockets_back and all(
                m.last_ack_at > since and min(s.version for s in m.sockets) >= m.last_ack_version
                for m in playing
            ):
                return time.monotonic() - since
            await asyncio.sleep(0.05)
        raise TimeoutError(f"not recovered within {timeout:.0f} s; see {self.topology.logs}")

    async def finish(self) -> dict:
        """Stop sending, settle, close; compare every socket and every count with PostgreSQL."""
        import asyncio

        if self.report or self.task is None:
            return self.report
        self.client.finish_now()
        result = await self.task
        database = await asyncio.to_thread(
            self.topology.django_task, "verify", {"match_ids": self.match_ids}
        )
        self.report = compare_with_database(result, database)
        return self.report


def compare_with_database(result: dict, database: dict) -> dict:
    """Lost: PostgreSQL holds fewer player steps than were acknowledged. Doubled: more than were
    acknowledged plus those in doubt (sent, socket gone before the answer)."""
    lost = doubled = 0
    inconsistent: list[str] = []
    for match_id, (acked, in_doubt) in result["match_steps"].items():
        stored = database[match_id]
        lost += max(0, acked - stored["player_steps"])
        doubled += max(0, stored["player_steps"] - acked - in_doubt)
        for socket_final in result["finals"][match_id]:
            if (socket_final["version"], socket_final["board"]) != (
                stored["version"],
                stored["board"],
            ) or socket_final["closed"]:
                inconsistent.append(
                    f"match {match_id} {socket_final['role']}: v{socket_final['version']}"
                    f" closed={socket_final['closed']}, database v{stored['version']}"
                )
    return {
        "lost_steps": lost,
        "doubled_steps": doubled,
        "acked_steps": sum(a for a, _ in result["match_steps"].values()),
        "steps_in_doubt": sum(d for _, d in result["match_steps"].values()),
        "inconsistent": inconsistent,
        "result": result,
        "database": database,
    }


def metric_total(text: str, name: str, **labels: str) -> float:
    """The sum of a metric's samples (as /metrics prints them) whose labels include `labels`."""
    from prometheus_client.parser import text_string_to_metric_families

    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name and labels.items() <= sample.labels.items()
    )
