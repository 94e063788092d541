"""Rollout truth: how often the analysis's best turn is the best by rollout, for the calibrated
evaluation (nardy/analysis.py, Master's 2-ply) and for the learned one (nardy/net.py, Expert's
2-ply), on the same seeded positions.

    nice -n 19 .venv/bin/python -m bench.rollout_truth [--positions 200] [--games 1296]
        [--seed 2026] [--minutes 40]

Positions: from self-play games of Club with a share of random turns (bench/selfplay.py's
players), stopped at a seeded turn, with a seeded roll that leaves a choice. Candidates: each
evaluation's best turn and the two best of each at 1-ply. Each candidate is rolled out
``--games`` games to the end from its end board, the opponent on roll, with the SAME dice for
every candidate of a position (game g's dice from one seed: common random numbers, so the
candidates' differences are measured far more precisely than their equities), both sides
played by the learned evaluation at 1-ply (Expert's evaluation without its 2-ply search: the
search costs ten times as much per turn). A candidate's rollout equity is the mean of its
games' points for the mover (oin 1, mars 2).

Printed per evaluation: how often its best turn is the rollout's best or within 0.02 of it,
the mean rollout loss of its choice, and the mean error of its own equity of the choice against
the rollout's; with the rollout's standard error. ``--minutes`` stops after the position that
passes it and reports the positions done. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from nardy import START_BOARD, TRADITIONAL, game_result, net, opponent_of
from nardy.analysis import analyse_turn, one_ply
from nardy.board import Board, Side
from nardy.bots import BEGINNER, CLUB, _not_moved_yet, choose_end_board
from nardy.fastgen import legal_end_boards

NOISE = 0.15  # share of random turns in the games the positions come from (bench/selfplay.py)
WITHIN = 0.02
MAX_TURNS = 1000


def moved_yet(board: Board, side: Side) -> bool:
    return not _not_moved_yet(board, side)


def position(seed: int) -> tuple[Board, Side, tuple[int, int], bool]:
    """A self-play position before a roll, and a roll that leaves a choice."""
    rng = random.Random(seed)
    stop = rng.randint(4, 70)
    board, side = START_BOARD, "w"
    for turn in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        first = not moved_yet(board, side)
        if turn >= stop and len(legal_end_boards(board, side, dice, first, TRADITIONAL)) > 1:
            return board, side, dice, first
        level = BEGINNER if rng.random() < NOISE else CLUB
        board, _ = choose_end_board(level, board, side, dice, first, TRADITIONAL,
                                    seed=rng.getrandbits(32))  # fmt: skip
        side = opponent_of(side)
        if game_result(board) is not None:  # ended before the stop: start again
            board, side = START_BOARD, "w"
    raise RuntimeError("no position found")


def rollout(end: Board, mover: Side, games: int, seed: int, model) -> list[int]:
    """Each game's points for ``mover`` from ``end``, the opponent on roll, game g's dice from
    ``seed`` and g alone."""
    points = []
    for game in range(games):
        rng = random.Random(seed * 1_000_003 + game)
        board, side = end, opponent_of(mover)
        moved = {"w": moved_yet(board, "w"), "b": moved_yet(board, "b")}
        result = game_result(board)
        while result is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            ends = legal_end_boards(board, side, dice, not moved[side], TRADITIONAL)
            board = net.best_end_board(ends, side, TRADITIONAL, model)
            moved[side] = True
            result = game_result(board)
            side = opponent_of(side)
        winner, won = result
        points.append(won if winner == mover else -won)
    return points


def analyse(board: Board, side: Side, dice: tuple[int, int], first: bool, model):
    """Each evaluation's choice with its own equity of it, and its two best at 1-ply."""
    ends = sorted(legal_end_boards(board, side, dice, first, TRADITIONAL))
    old = analyse_turn(board, side, dice, first, ends[0], TRADITIONAL)
    old_top = sorted(ends, key=lambda end: (-one_ply(end, side), end))[:2]
    net_choice, _ = net.expert_search(ends, side, TRADITIONAL)
    net_value, _ = net.reply_value(net_choice, side, TRADITIONAL, model, 10**9)
    net_top = net.ranked(ends, side, TRADITIONAL, model)[0][:2]
    return {"old": (old.best_board, old.best), "net": (net_choice, net_value)}, old_top + net_top


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--games", type=int, default=1296)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--minutes", type=float, default=0.0)
    args = parser.parse_args(argv)
    model = net.load()
    started, wall = time.process_time(), time.monotonic()
    rows: dict[str, list[tuple[bool, float, float]]] = {"old": [], "net": []}
    errors_of_rollout, games_played = [], 0
    for index in range(args.positions):
        board, side, dice, first = position(args.seed * 10_000 + index)
        choices, tops = analyse(board, side, dice, first, model)
        candidates = list(dict.fromkeys([choice for choice, _ in choices.values()] + tops))
        equity = {}
        for candidate in candidates:
            points = rollout(candidate, side, args.games, args.seed * 10_000 + index, model)
            equity[candidate] = statistics.fmean(points)
            errors_of_rollout.append(statistics.pstdev(points) / math.sqrt(len(points)))
            games_played += len(points)
        best = max(equity.values())
        for name, (choice, own) in choices.items():
            rows[name].append((equity[choice] >= best - WITHIN, best - equity[choice],
                               abs(own - equity[choice])))  # fmt: skip
        if args.minutes and time.monotonic() - wall > 60 * args.minutes:
            break
    seconds = time.process_time() - started
    done = len(rows["old"])
    print(f"{done} positions, {games_played:,} rollout games of {args.games} per candidate "
          f"({games_played / done / args.games:.1f} candidates a position), {seconds:.0f} s of "
          f"CPU, {1000 * seconds / games_played:.1f} ms per rollout game; a candidate's "
          f"rollout standard error mean {statistics.fmean(errors_of_rollout):.3f}")  # fmt: skip
    for name, label in (("old", "calibrated evaluation (Master's 2-ply)"),
                        ("net", "learned evaluation (Expert's 2-ply)")):  # fmt: skip
        found = rows[name]
        agree = sum(hit for hit, _, _ in found)
        print(f"{label}: best or within {WITHIN} of the rollout's best in {agree} of {done} "
              f"({100 * agree / done:.1f} %); mean rollout loss of its choice "
              f"{statistics.fmean(loss for _, loss, _ in found):.4f}; mean error of its equity "
              f"{statistics.fmean(error for _, _, error in found):.4f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
