"""The bots' strength ladder, measured: each level plays the one below one-point games, with
MIRRORED dice (each seed played twice, the sides swapped, so luck cancels: the two games of a
pair see the same rolls turn by turn), and the win rates are printed with a 95 % confidence
interval (Wilson score interval), with each level's time per turn (mean, p50, p99, max, of the
process's CPU).

    nice -n 10 .venv/bin/python -m bench.bot_strength [--games 2000]
        [--pairs expert:master,master:club,club:beginner] [--seed 2026] [--processes 1]
        [--rules traditional|tournament|both] [--write]

Goals: each level beats the one below at >= 60 %, Expert's turn p99 <= 300 ms. Pairs of games
alternate between the rule sets with ``--rules both``. ``--write`` records the figures in
nardy/bot_strength.json (date, commit, command, games, wins, interval per level), which the Play
page and the Rules show (never typed by hand). The engine is pure, so this needs no Django, no
database and no server; it only uses the processes it is given (``--processes``, default 1: the
machine is shared). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices, a shared machine

from nardy import START_BOARD, TOURNAMENT, TRADITIONAL, game_result, opponent_of  # noqa: E402
from nardy.board import Board, Side  # noqa: E402
from nardy.bots import LEVELS, choose_end_board  # noqa: E402
from nardy.ruleset import RuleSet  # noqa: E402

RULES = {
    "traditional": (TRADITIONAL,),
    "tournament": (TOURNAMENT,),
    "both": (TRADITIONAL, TOURNAMENT),
}
RULES_BY_NAME = {"traditional": TRADITIONAL, "tournament": TOURNAMENT}
MAX_TURNS = 1000  # a game always ends far sooner; this only guards against a bug looping
ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "nardy" / "bot_strength.json"


def level_chooser(level: str):
    """A player for ``play_game``: (board, side, dice, first turn, rules, seed) -> end board."""

    def choose(board, side, dice, first_turn, rules, seed):
        return choose_end_board(level, board, side, dice, first_turn, rules, seed=seed)[0]

    return choose


def play_game(
    choosers: dict[Side, object], rules: RuleSet, seed: int
) -> tuple[Side, dict[Side, list[float]]]:
    """One game from the start position, White first; returns the winner and each side's CPU
    seconds per turn. The dice come from ``seed`` alone (the players' own seeds from the turn
    number), so the same seed with the sides swapped replays the same rolls."""
    dice_rng = random.Random(seed)
    board: Board = START_BOARD
    side: Side = "w"
    moved = {"w": False, "b": False}
    times: dict[Side, list[float]] = {"w": [], "b": []}
    for turn in range(MAX_TURNS):
        dice = (dice_rng.randint(1, 6), dice_rng.randint(1, 6))
        started = time.process_time()
        board = choosers[side](board, side, dice, not moved[side], rules, seed * 1009 + turn)
        times[side].append(time.process_time() - started)
        moved[side] = True
        result = game_result(board)
        if result is not None:
            return result[0], times
        side = opponent_of(side)
    raise RuntimeError(f"game with seed {seed} did not end")


def _game_job(job: tuple[str, str, int, str, int]) -> tuple[bool, list[float], list[float]]:
    """Game ``index`` of a pair's mirrored series: even as White, odd as Black, same dice."""
    upper, lower, index, rules_name, seed = job
    upper_side: Side = "w" if index % 2 == 0 else "b"
    lower_side = opponent_of(upper_side)
    choosers = {upper_side: level_chooser(upper), lower_side: level_chooser(lower)}
    winner, times = play_game(choosers, RULES_BY_NAME[rules_name], seed)
    return winner == upper_side, times[upper_side], times[lower_side]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return centre - half, centre + half


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def run_pair(
    upper: str,
    lower: str,
    games: int,
    seed: int,
    rules: str,
    processes: int,
    minutes: float = 0.0,
) -> dict[str, object]:
    """Plays up to ``games`` (mirrored pairs); with ``minutes``, stops after the pair that ends
    past that much wall time and reports the games actually played."""
    rule_names = [ruleset_name(r) for r in RULES[rules]]
    jobs = [
        (
            upper,
            lower,
            index,
            rule_names[index // 2 % len(rule_names)],
            seed * 1_000_003 + index // 2,
        )
        for index in range(games)
    ]
    started = time.perf_counter()
    wins = 0
    turn_times: dict[str, list[float]] = {upper: [], lower: []}
    pool = ProcessPoolExecutor(processes) if processes > 1 else None
    results = pool.map(_game_job, jobs, chunksize=2) if pool else map(_game_job, jobs)
    done = 0
    for done, (won, upper_times, lower_times) in enumerate(results, 1):
        wins += won
        turn_times[upper] += upper_times
        turn_times[lower] += lower_times
        if minutes and done % 2 == 0 and time.perf_counter() - started > 60 * minutes:
            break
        if done % 50 == 0 and done < games:  # partial figures, should the run be cut short
            low, high = wilson(wins, done)
            print(
                f"  {upper} vs {lower}: {done} games, {100 * wins / done:.1f} % "
                f"(95 % CI {100 * low:.1f}-{100 * high:.1f} %), "
                f"{(time.perf_counter() - started) / done:.2f} s per game",
                file=sys.stderr,
                flush=True,
            )
    if pool:
        pool.shutdown(cancel_futures=True)
    elapsed = time.perf_counter() - started
    games = done
    low, high = wilson(wins, games)
    print(
        f"{upper} vs {lower} ({rules}, mirrored dice): {games} games, {upper} won {wins} = "
        f"{100 * wins / games:.1f} % (95 % CI {100 * low:.1f}-{100 * high:.1f} %); "
        f"{elapsed:.0f} s, {elapsed / games:.2f} s per game"
    )
    for level, times in turn_times.items():
        if level in ("beginner", "club") or not times:
            continue
        ordered = sorted(times)
        print(
            f"  {level} turn (CPU): n={len(ordered)} mean={1000 * statistics.fmean(ordered):.0f} ms "
            f"p50={1000 * percentile(ordered, 0.5):.0f} ms "
            f"p99={1000 * percentile(ordered, 0.99):.0f} ms max={1000 * ordered[-1]:.0f} ms"
        )
    sys.stdout.flush()
    ordered = sorted(turn_times[upper])
    return {
        "against": lower, "games": games, "wins": wins, "rules": rules,
        "low": round(low, 4), "high": round(high, 4),
        "turn_cpu_ms": {
            "mean": round(1000 * statistics.fmean(ordered), 1),
            "p99": round(1000 * percentile(ordered, 0.99), 1),
            "max": round(1000 * ordered[-1], 1),
        },
    }  # fmt: skip


def ruleset_name(rules: object) -> str:
    return "traditional" if rules == TRADITIONAL else "tournament"


def write_results(measured: dict[str, dict[str, object]]) -> None:
    """Merges the pairs measured into nardy/bot_strength.json (a level keeps its older figure
    when this run did not measure it), with the date, commit and command."""
    current = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"levels": {}}
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()
    for level, figures in measured.items():
        current["levels"][level] = {
            **figures,
            "measured_on": datetime.date.today().isoformat(),
            "commit": commit,
            "command": "python -m bench.bot_strength " + " ".join(sys.argv[1:]),
        }
    RESULTS.write_text(json.dumps(current, indent=2, sort_keys=True) + "\n")
    print(f"written to {RESULTS.relative_to(ROOT)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--pairs", default="expert:master,master:club,club:beginner")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--rules", choices=sorted(RULES), default="both")
    parser.add_argument("--write", action="store_true", help="record in nardy/bot_strength.json")
    parser.add_argument(
        "--minutes", type=float, default=0.0, help="per pair: stop after this long (0: no limit)"
    )
    arguments = parser.parse_args()
    if arguments.games % 2:
        parser.error("--games must be even: the games are played in mirrored pairs")
    measured = {}
    for pair in arguments.pairs.split(","):
        upper, lower = pair.split(":")
        if upper not in LEVELS or lower not in LEVELS:
            parser.error(f"levels are {LEVELS}, got {pair!r}")
        measured[upper] = run_pair(
            upper, lower, arguments.games, arguments.seed, arguments.rules, arguments.processes,
            arguments.minutes,
        )  # fmt: skip
    if arguments.write:
        write_results(measured)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
