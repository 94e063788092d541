"""How long the post-match analysis takes (nardy/analysis.py) on one core: 1-, 3- and
7-point matches played by Club against itself with random turns (bench/selfplay.py's players),
each analysed turn by turn within the match budget, as the analysis worker does.

    nice -n 10 .venv/bin/python -m bench.analysis_speed [--matches 3] [--lengths 1,3,7]

Prints per length: turns, CPU seconds per match (process time, so other load on a shared machine
counts less), positions evaluated and CPU per position, and the CPU of the cube decisions as in a
cube match (nardy/cube_analysis.py: every roll of every game is a decision to double or not, the
cube left in the middle, as if nobody ever doubled: the most decisions a match can hold; a
1-point match has no cube, so none there). Goal: a 7-point match under 60 s of one core, cube
decisions included. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from nardy import START_BOARD, TRADITIONAL, game_result, opponent_of
from nardy.analysis import MATCH_BUDGET, analyse_turns, game_turns
from nardy.board import Board, Side, pip_count
from nardy.bots import BEGINNER, CLUB, choose_end_board
from nardy.cube_analysis import CubeMoment, game_cube_decisions
from nardy.equity import estimate
from nardy.ruleset import RuleSet

MoveLog = list[tuple[Side, tuple[int, int], Board]]


def play_match(length: int, seed: int) -> list[MoveLog]:
    """The games of one match to ``length`` points (oin 1, mars 2), the winner starting the next."""
    rng = random.Random(seed)
    points = {"w": 0, "b": 0}
    games: list[MoveLog] = []
    side: Side = "w"
    while max(points.values()) < length:
        board, moved, log = START_BOARD, {"w": False, "b": False}, []
        while game_result(board) is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            level = BEGINNER if rng.random() < 0.15 else CLUB
            board, _ = choose_end_board(level, board, side, dice, not moved[side], TRADITIONAL,
                                        seed=rng.getrandbits(32))  # fmt: skip
            log.append((side, dice, board))
            moved[side] = True
            side = opponent_of(side)
        winner, won = game_result(board)  # type: ignore[misc]
        points[winner] += won
        side = winner
        games.append(log)
    return games


def cube_decisions(games: list[MoveLog], length: int) -> int:
    """The cube decisions of a match to ``length`` with the cube, every game's rolls each a
    decision to double or not (nobody doubles), the score and Crawford game followed."""
    rules = RuleSet(match_length=length, doubling_cube=True)
    points = {"w": 0, "b": 0}
    crawford_game = 0
    found = 0
    for number, log in enumerate(games, start=1):
        logged = game_turns(START_BOARD, log)
        moments = [CubeMoment(t.board, t.side, 0 if t.side == "w" else 1,
                              pip_count(t.board, t.side), 0) for t in logged]  # fmt: skip
        chances = [estimate(moment.board, moment.side).win for moment in moments]
        if not crawford_game and length - 1 in points.values():
            crawford_game = number
        found += len(game_cube_decisions(
            moments, chances, rules, score=(points["w"], points["b"]),
            crawford_game=number == crawford_game, past_crawford=0 < crawford_game < number,
        ))  # fmt: skip
        winner, won = game_result(log[-1][2])  # type: ignore[misc]
        points[winner] += 1  # a cube game knows no mars
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--lengths", default="1,3,7")
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    print(f"match budget: {MATCH_BUDGET:,} positions")
    for length in (int(value) for value in arguments.lengths.split(",")):
        seconds, turns, positions, cube_seconds, cube_counts = [], [], [], [], []
        for index in range(arguments.matches):
            games = play_match(length, arguments.seed * 1000 + length * 100 + index)
            logged = [turn for log in games for turn in game_turns(START_BOARD, log)]
            started = time.process_time()
            results = list(analyse_turns(logged, TRADITIONAL))
            cube_started = time.process_time()
            decisions = cube_decisions(games, length) if length > 1 else 0
            cube_seconds.append(time.process_time() - cube_started)
            cube_counts.append(decisions)
            seconds.append(time.process_time() - started)
            turns.append(len(logged))
            positions.append(sum(result.positions for result in results if result))
        per_position = sum(seconds) / max(sum(positions), 1)
        print(
            f"{length}-point: {arguments.matches} matches, turns mean {statistics.fmean(turns):.0f} "
            f"(max {max(turns)}); CPU per match mean {statistics.fmean(seconds):.1f} s, "
            f"max {max(seconds):.1f} s; positions mean {statistics.fmean(positions):,.0f}; "
            f"{1e6 * per_position:.1f} µs CPU per position, "
            f"{1000 * sum(seconds) / sum(turns):.0f} ms per turn; of which cube decisions "
            f"mean {statistics.fmean(cube_counts):.0f} in {statistics.fmean(cube_seconds):.2f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
