"""Soak of the production topology (docs/operations.md "Production"): `make soak` or

    .venv/bin/python -m bench.soak [--matches 200] [--duration 1800] [--churn-per-minute 60]
        [--step-interval 2.0] [--spectators-per-match 1] [--warm-up 120]

bench/topology.py's nginx + two Daphne processes + worker + beat (DEBUG=0), on DATABASE_URL /
REDIS_URL when given (a fresh database there) or on embedded servers. N matches of 7 points are
played through nginx over TLS by bench/clients.py's players and spectators, while sockets close
and come back (`--churn-per-minute` random sockets a minute, as tabs closing and reopening).

Printed: resident memory of every process after the warm-up, at the middle and at the end, and
its growth since the warm-up (goal: under 5 %); errors; unexpected closes; lost and doubled steps
(PostgreSQL against what the players were told); round-trip p50/p99. Figures only; nothing is
asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import time

import psutil
import uvloop

from bench.clients import percentile
from bench.live_matches import LiveMatches, metric_total
from bench.topology import Topology

log = logging.getLogger("soak")


def memory_of(topology: Topology) -> dict[str, float]:
    """Unique MiB of each process (USS: pages no other process shares, so PostgreSQL's shared
    buffers, counted again in every backend's RSS, do not pose as growth), a process group's
    children included (worker pool, nginx workers, PostgreSQL backends)."""
    pids = {name: process.pid for name, process in topology.children.processes.items()}
    for name, server in (("postgres", topology.postgres), ("redis", topology.redis)):
        if server is not None and server.pid is not None:
            pids[name] = server.pid
    result = {}
    for name, pid in pids.items():
        try:
            process = psutil.Process(pid)
            total = process.memory_full_info().uss
            for child in process.children(recursive=True):
                try:
                    total += child.memory_full_info().uss
                except psutil.Error:
                    pass
            result[name] = total / 2**20
        except psutil.Error:
            pass
    return result


def sockets_per_process(topology: Topology) -> dict[str, int]:
    """Open sockets of each Daphne process, from /metrics: a process's memory follows them."""
    _, body = topology.get("/metrics")
    return {
        f"daphne-{index}": int(
            metric_total(body.decode(), "nardy_sockets_open", process=f"daphne-{index}")
        )
        for index in range(1, topology.daphne_count + 1)
    }


async def churn(live: LiveMatches, per_minute: float, stop_at: float) -> None:
    if per_minute <= 0:
        return
    while time.monotonic() < stop_at:
        await asyncio.sleep(random.expovariate(per_minute / 60))
        candidates = [s for s in live.client.sockets if not s.closed]
        if candidates:
            await random.choice(candidates).bounce()


async def soak(arguments) -> int:
    own = arguments.embedded
    sockets = arguments.matches * (2 + arguments.spectators_per_match)
    with Topology(
        daphne_count=arguments.daphne_processes,
        own_servers=own,
        # All the soak's sockets come from one address; a real crowd comes from many.
        SOCKETS_PER_ADDRESS=str(sockets + 100),
    ) as topology:
        print(f"topology up: {topology.base_url} (logs in {topology.logs})", flush=True)
        async with LiveMatches(
            topology,
            matches=arguments.matches,
            spectators_per_match=arguments.spectators_per_match,
            step_interval=arguments.step_interval,
            length=7,
        ) as live:
            started = time.monotonic()
            end_at = started + arguments.duration
            churner = asyncio.create_task(churn(live, arguments.churn_per_minute, end_at))
            points = {
                "warm": started + min(arguments.warm_up, arguments.duration / 3),
                "middle": started + arguments.duration / 2,
                "end": end_at - 1,
            }
            memory: dict[str, dict[str, float]] = {}
            for label, at in points.items():
                await asyncio.sleep(max(0.0, at - time.monotonic()))
                memory[label] = memory_of(topology)
                stats = live.client.stats
                print(
                    f"[{label} t={time.monotonic() - started:.0f}s] steps sent={stats.steps_sent} "
                    f"errors={sum(stats.errors.values())} bounces={stats.bounces} "
                    f"reconnects={stats.reconnects} sockets per process: "
                    f"{await asyncio.to_thread(sockets_per_process, topology)} "
                    + " ".join(f"{k}={v:.0f}MiB" for k, v in sorted(memory[label].items())),
                    flush=True,
                )
            churner.cancel()
        report = live.report
    print(summary(arguments, report, memory, time.monotonic() - started), flush=True)
    return 0


def summary(arguments, report: dict, memory: dict, elapsed: float) -> str:
    result = report["result"]
    rtt = sorted(result["rtt_ms"])
    lines = [
        f"soak: matches={arguments.matches} sockets={result['sockets']} "
        f"duration={elapsed:.0f}s step-interval={arguments.step_interval:g}s "
        f"churn={arguments.churn_per_minute:g}/min",
        f"steps acked={report['acked_steps']} ({report['acked_steps'] / elapsed:.1f}/s) "
        f"in doubt={report['steps_in_doubt']} lost={report['lost_steps']} "
        f"doubled={report['doubled_steps']} inconsistent sockets={len(report['inconsistent'])}",
        f"round trip ms: p50={percentile(rtt, 0.5):.1f} p99={percentile(rtt, 0.99):.1f} "
        f"max={rtt[-1] if rtt else float('nan'):.1f} (n={len(rtt)})",
        f"errors={sum(result['errors'].values())} {result['errors'] or ''} "
        f"unexpected closes={sum(result['unexpected_closes'].values())} "
        f"{result['unexpected_closes'] or ''} connect failures="
        f"{sum(result['connect_failures'].values())} bounces={result['bounces']} "
        f"reconnects={result['reconnects']} resyncs={result['resyncs']} "
        f"stalls={result['stalls']} games finished={result['games_finished']}",
        "memory, unique MiB (after warm-up / middle / end, growth since warm-up):",
    ]
    for name in sorted(memory["warm"]):
        warm, middle, end = (memory[p].get(name, float("nan")) for p in ("warm", "middle", "end"))
        growth = 100 * (end - warm) / warm if warm else float("nan")
        lines.append(f"  {name:10s} {warm:8.1f} {middle:8.1f} {end:8.1f}  {growth:+.1f} %")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--spectators-per-match", type=int, default=1)
    parser.add_argument("--duration", type=float, default=1800.0)
    parser.add_argument("--warm-up", type=float, default=120.0)
    parser.add_argument("--step-interval", type=float, default=2.0)
    parser.add_argument("--churn-per-minute", type=float, default=60.0)
    parser.add_argument("--daphne-processes", type=int, default=2)
    parser.add_argument(
        "--embedded", action="store_true",
        help="embedded PostgreSQL and Redis even when DATABASE_URL / REDIS_URL are set",
    )  # fmt: skip
    arguments = parser.parse_args(argv)
    if arguments.matches < 1 or arguments.duration < 10 or arguments.step_interval < 0.25:
        parser.error("need --matches >= 1, --duration >= 10, --step-interval >= 0.25")
    try:
        return uvloop.run(soak(arguments))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
