"""The live path's CPU guard: a short bench.live_load run against bench/live_budget.toml.

    .venv/bin/python -m bench.live_budget      # or: make bench-guard (CI runs it: .ci/run)

Runs `bench.live_load` with the budget file's [run] (production settings unless the environment
sets its own), prints the figures, and exits 1 when Daphne's or PostgreSQL's CPU per command is
over its [limit], or over its [relative_limit] (that CPU over the load generator's own CPU per
command, the same program doing the same work beside the servers, so it moves with the machine's
speed and load as they do), or when the run itself was unsound (a step not delivered, a match
whose sockets disagree with PostgreSQL, an error): a broken run's cost says nothing. Latency is
printed, never judged: on a shared machine it is noise. docs/benchmarks.md "The live path's
budget" says how to update the budget.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET = Path(__file__).with_name("live_budget.toml")
# What docs/benchmarks.md "Benchmarks" calls production settings; the secret only signs this run's sessions.
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "live-budget-" + "x" * 50,
    "EMAIL_HOST": "localhost",
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
}


def load_budget(path: Path = BUDGET) -> dict:
    return tomllib.loads(path.read_text())


def relative_cost(figures: dict, process: str) -> float | None:
    """`process`'s CPU per command over the load generator's (None without both figures)."""
    per_command = figures["cpu_ms_per_command"]
    spent, client = per_command.get(process), per_command.get("client")
    return spent / client if spent is not None and client else None


def verdict(figures: dict, budget: dict) -> list[str]:
    """What is wrong with a run's figures against the budget (nothing: within it)."""
    limits, relative = budget["limit"], budget.get("relative_limit", {})
    per_command = figures["cpu_ms_per_command"]
    problems = []
    for process in ("daphne", "postgres"):
        limit = limits[f"{process}_cpu_ms_per_command"]
        spent = per_command.get(process)
        if spent is None:
            problems.append(f"no CPU figure for {process}")
            continue
        if spent > limit:
            problems.append(f"{process} {spent:.2f} ms CPU per command, over its {limit} ms")
        ratio, ratio_limit = relative_cost(figures, process), relative.get(f"{process}_per_client")
        if ratio_limit is not None and (ratio is None or ratio > ratio_limit):
            shown = "no figure" if ratio is None else f"{ratio:.2f}"
            problems.append(
                f"{process} {shown} times the load generator's CPU per command, "
                f"over its {ratio_limit}"
            )
    if figures["commands"] == 0:
        problems.append("no command was sent")
    if figures["deliveries_missing"]:
        problems.append(f"{figures['deliveries_missing']} step events never delivered")
    if figures["consistent"] != figures["matches"]:
        problems.append(f"only {figures['consistent']}/{figures['matches']} matches consistent")
    if figures["errors"]:
        problems.append(f"{figures['errors']} errors answered")
    return problems


def main() -> int:
    budget = load_budget()
    run = budget["run"]
    environment = {**PRODUCTION, **os.environ}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="live-budget-") as folder:
        report = Path(folder) / "figures.json"
        environment.setdefault("BENCH_LOG_DIR", str(Path(folder) / "logs"))
        code = subprocess.call(
            [sys.executable, "-m", "bench.live_load",
             "--matches", str(run["matches"]), "--duration", str(run["duration"]),
             "--daphne-processes", str(run["daphne_processes"]),
             "--spectators-per-match", str(run["spectators_per_match"]),
             "--report", str(report)],
            cwd=ROOT, env=environment,
        )  # fmt: skip
        if code != 0 or not report.exists():
            print(f"live budget: the benchmark failed (exit {code})", flush=True)
            return 1
        figures = json.loads(report.read_text())
    per_command = figures["cpu_ms_per_command"]
    limits, relative = budget["limit"], budget.get("relative_limit", {})
    print(
        f"live budget ({run['matches']} matches, {run['duration']} s, "
        f"{figures['commands']} commands, {time.monotonic() - started:.0f} s in all): "
        f"Daphne {per_command['daphne']:.2f} ms CPU per command "
        f"(limit {limits['daphne_cpu_ms_per_command']}), "
        f"PostgreSQL {per_command['postgres']:.2f} ms (limit "
        f"{limits['postgres_cpu_ms_per_command']}); the load generator "
        f"{per_command.get('client', float('nan')):.2f} ms, so Daphne "
        f"{relative_cost(figures, 'daphne') or float('nan'):.2f} times it (limit "
        f"{relative.get('daphne_per_client')}) and PostgreSQL "
        f"{relative_cost(figures, 'postgres') or float('nan'):.2f} times (limit "
        f"{relative.get('postgres_per_client')}); p50 {figures['p50_ms']:.1f} ms, "
        f"p99 {figures['p99_ms']:.1f} ms (not judged); other processes used "
        f"{figures['other_cpu_seconds']:.0f} of {figures['available_cpu_seconds']:.0f} cpu-s",
        flush=True,
    )
    problems = verdict(figures, budget)
    for problem in problems:
        print(f"live budget: FAILED: {problem}", flush=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
