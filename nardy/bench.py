"""``python -m nardy bench``: speed of the full legal-turn set on self-play positions.

Randomness lives here only (a seeded ``random.Random``); the engine itself never rolls dice.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
from typing import NamedTuple

from .board import START_BOARD, Board, Side, opponent_of
from .fastgen import legal_end_boards
from .ruleset import TOURNAMENT, TRADITIONAL, RuleSet
from .scoring import winner_of


class Position(NamedTuple):
    board: Board
    side: Side
    dice: tuple[int, int]
    first_turn: bool
    rules: RuleSet


def self_play_positions(seed: int, games: int, rules: RuleSet) -> list[Position]:
    """Positions (with the roll to play) met in ``games`` random self-play games."""
    rng = random.Random(seed)
    positions: list[Position] = []
    for _ in range(games):
        board = START_BOARD
        side: Side = "w"
        turns_played = {"w": 0, "b": 0}
        while winner_of(board) is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            first_turn = turns_played[side] == 0
            positions.append(Position(board, side, dice, first_turn, rules))
            ends = sorted(legal_end_boards(board, side, dice, first_turn, rules))
            board = rng.choice(ends)
            turns_played[side] += 1
            side = opponent_of(side)
    return positions


TURN_OPTIONS = ("head_exception", "single_die", "block_release")


def run_bench(seed: int = 2026, games_per_mode: int = 20, **options: str) -> str:
    """``options``: turn options (e.g. ``single_die="choice"``) applied to both blocks."""
    unknown = sorted(set(options) - set(TURN_OPTIONS))
    if unknown:
        raise ValueError(f"unknown bench option(s) {unknown}; known: {list(TURN_OPTIONS)}")
    traditional = dataclasses.replace(TRADITIONAL, **options)  # type: ignore[arg-type]
    tournament = dataclasses.replace(TOURNAMENT, **options)  # type: ignore[arg-type]
    positions = self_play_positions(seed, games_per_mode, traditional) + self_play_positions(
        seed + 1, games_per_mode, tournament
    )
    timer = time.perf_counter_ns
    durations: list[int] = []
    total_start = timer()
    for position in positions:
        started = timer()
        legal_end_boards(*position)
        durations.append(timer() - started)
    total = (timer() - total_start) / 1e9
    median_us = statistics.median(durations) / 1000
    mean_us = statistics.fmean(durations) / 1000
    doubles = [d for d, p in zip(durations, positions, strict=True) if p.dice[0] == p.dice[1]]
    return (
        f"positions: {len(positions)} "
        f"(seed {seed}, {games_per_mode} self-play games per block mode"
        f"{''.join(f', {key}={value}' for key, value in sorted(options.items()))})\n"
        f"positions per second: {len(positions) / total:,.0f}\n"
        f"median us per full legal-turn set: {median_us:.1f}\n"
        f"mean us per full legal-turn set: {mean_us:.1f}\n"
        f"max us: {max(durations) / 1000:.1f}; mean us on doubles: "
        f"{statistics.fmean(doubles) / 1000 if doubles else 0:.1f}"
    )
