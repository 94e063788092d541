"""The bots' strength ladder, measured: each level plays the one below (and Master plays
Beginner) one-point games on random dice, and the win rates are printed with a 95 % confidence
interval (Wilson score interval), with Master's time per turn (mean, p50, p99, max).

    .venv/bin/python -m bench.bot_strength [--games 1000] [--pairs club:beginner,master:club]
        [--seed 2026] [--processes 1] [--rules traditional|tournament|both]

Goals: each level beats the one below at >= 60 %, Master beats Beginner at >= 85 %,
Master's turn p99 < 1 s. Colours alternate game by game (White starts, as after the opening roll)
and, with ``--rules both``, so do the rule sets. The engine is pure, so this needs no Django, no
database and no server; it only uses the processes it is given (``--processes``, default 1: the
machine is shared). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from games.rules import START_BOARD, TOURNAMENT, TRADITIONAL, game_result, opponent_of
from games.rules.bots import LEVELS, MASTER, choose_end_board

RULES = {
    "traditional": (TRADITIONAL,),
    "tournament": (TOURNAMENT,),
    "both": (TRADITIONAL, TOURNAMENT),
}
MAX_TURNS = 1000  # a game always ends far sooner; this only guards against a bug looping


def play_game(levels: dict[str, str], rules_name: str, seed: int) -> tuple[str, list[float]]:
    """One game from the start position, White moving first; returns (winning level, seconds
    per Master turn)."""
    rules = {"traditional": TRADITIONAL, "tournament": TOURNAMENT}[rules_name]
    rng = random.Random(seed)
    board = START_BOARD
    side = "w"
    moved = {"w": False, "b": False}
    master_times: list[float] = []
    for _ in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        level = levels[side]
        started = time.perf_counter()
        board, _played = choose_end_board(
            level, board, side, dice, not moved[side], rules, seed=rng.getrandbits(32)
        )
        if level == MASTER:
            master_times.append(time.perf_counter() - started)
        moved[side] = True
        result = game_result(board)
        if result is not None:
            return levels[result[0]], master_times
        side = opponent_of(side)
    raise RuntimeError(f"game with seed {seed} did not end")


def _game_job(job: tuple[str, str, int, str, int]) -> tuple[bool, list[float]]:
    upper, lower, index, rules_name, seed = job
    white, black = (upper, lower) if index % 2 == 0 else (lower, upper)
    winner, master_times = play_game({"w": white, "b": black}, rules_name, seed)
    return winner == upper, master_times


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


def run_pair(upper: str, lower: str, games: int, seed: int, rules: str, processes: int) -> None:
    rule_names = [ruleset_name(r) for r in RULES[rules]]
    jobs = [
        (upper, lower, index, rule_names[index // 2 % len(rule_names)], seed * 1_000_003 + index)
        for index in range(games)
    ]
    started = time.perf_counter()
    wins = 0
    master_times: list[float] = []
    pool = ProcessPoolExecutor(processes) if processes > 1 else None
    results = pool.map(_game_job, jobs, chunksize=2) if pool else map(_game_job, jobs)
    for done, (won, times) in enumerate(results, 1):
        wins += won
        master_times += times
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
        pool.shutdown()
    elapsed = time.perf_counter() - started
    low, high = wilson(wins, games)
    print(
        f"{upper} vs {lower} ({rules}): {games} games, {upper} won {wins} = "
        f"{100 * wins / games:.1f} % (95 % CI {100 * low:.1f}-{100 * high:.1f} %); "
        f"{elapsed:.0f} s, {elapsed / games:.2f} s per game"
    )
    if master_times:
        ordered = sorted(master_times)
        print(
            f"  master turn: n={len(ordered)} mean={1000 * statistics.fmean(ordered):.0f} ms "
            f"p50={1000 * percentile(ordered, 0.5):.0f} ms "
            f"p99={1000 * percentile(ordered, 0.99):.0f} ms max={1000 * ordered[-1]:.0f} ms"
        )
    sys.stdout.flush()


def ruleset_name(rules: object) -> str:
    return "traditional" if rules == TRADITIONAL else "tournament"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--pairs", default="club:beginner,master:club,master:beginner")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--rules", choices=sorted(RULES), default="both")
    arguments = parser.parse_args()
    for pair in arguments.pairs.split(","):
        upper, lower = pair.split(":")
        if upper not in LEVELS or lower not in LEVELS:
            parser.error(f"levels are {LEVELS}, got {pair!r}")
        run_pair(
            upper, lower, arguments.games, arguments.seed, arguments.rules, arguments.processes
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
