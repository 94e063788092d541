"""Self-play games for fitting and checking the calibrated equity (nardy/equity.py).

Each game is played from the start position by the Club chooser on both sides with a share of
random turns (``NOISE``), so that the positions cover mistakes as well as good play (the
analysis scores both); dice and random turns come from ``random.Random(seed)``. Every position
before a roll is recorded with the side on roll and the game's result. Pure engine, no Django.
"""

from __future__ import annotations

import hashlib
import pickle
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from nardy import START_BOARD, TRADITIONAL, game_result, opponent_of
from nardy.board import Board, Side
from nardy.bots import BEGINNER, CLUB, choose_end_board

NOISE = 0.15  # share of turns played at random
MAX_TURNS = 1000
# Held-out games use seeds from here on, so fitting never sees them.
HELD_OUT_BASE = 10_000_000


@dataclass(frozen=True, slots=True)
class Position:
    board: Board
    side: Side  # on roll, before rolling
    won: bool  # the side on roll won the game
    won_mars: bool
    lost_mars: bool


def play(seed: int) -> Iterator[Position]:
    """Every position before a roll in one self-play game, with the outcome."""
    rng = random.Random(seed)
    board, side = START_BOARD, "w"
    moved = {"w": False, "b": False}
    seen: list[tuple[Board, Side]] = []
    for _ in range(MAX_TURNS):
        seen.append((board, side))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        level = BEGINNER if rng.random() < NOISE else CLUB
        board, _played = choose_end_board(
            level, board, side, dice, not moved[side], TRADITIONAL, seed=rng.getrandbits(32)
        )
        moved[side] = True
        result = game_result(board)
        if result is not None:
            winner, points = result
            for position, mover in seen:
                won = mover == winner
                yield Position(position, mover, won, won and points == 2, not won and points == 2)
            return
        side = opponent_of(side)
    raise RuntimeError(f"self-play game {seed} did not end")


# Played games are kept on disk (git-ignored), keyed by the seeds, the thinning, the noise and
# the source of the rules and bots that played them, so a refit or a re-check reuses them.
CACHE = Path(__file__).resolve().parents[1] / ".data" / "selfplay"
RULES = Path(__file__).resolve().parents[1] / "nardy"


def _cache_path(first_seed: int, games: int, every: int) -> Path:
    digest = hashlib.sha256(f"{NOISE} {MAX_TURNS}".encode())
    for source in sorted(RULES.rglob("*.py")):
        if not source.name.startswith(("equity", "analysis", "net")):  # not what plays the games
            digest.update(source.read_bytes())
    return CACHE / f"{first_seed}-{games}-{every}-{digest.hexdigest()[:12]}.pickle"


def positions(first_seed: int, games: int, every: int = 1) -> list[Position]:
    """The positions of ``games`` games from ``first_seed`` on, keeping one in ``every`` (the
    positions of one game are alike; thinning keeps the fit fast at the same spread)."""
    cached = _cache_path(first_seed, games, every)
    if cached.exists():
        return pickle.loads(cached.read_bytes())  # noqa: S301 (our own file, written below)
    kept: list[Position] = []
    for seed in range(first_seed, first_seed + games):
        for index, position in enumerate(play(seed)):
            if index % every == seed % every:
                kept.append(position)
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL))
    return kept
