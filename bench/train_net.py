"""Trains the learned evaluation (nardy/net.py) by self-play from the start position, TD(lambda)
as TD-Gammon (Tesauro, "Temporal Difference Learning and TD-Gammon", Communications of the ACM
38(3), 1995): the network plays both sides, greedily at 1-ply (the end board it values best for
the mover), and after each game every position's value is moved toward its lambda-return, the
offline "forward view" of TD(lambda) (Sutton and Barto, "Reinforcement Learning: An
Introduction", 2nd ed., 2018, section 12.1):

    G_T = the game's result (exact),
    G_t = (1 - lambda) * flip(V(s_{t+1})) + lambda * flip(G_{t+1}),

``flip`` turning the next position's chances (the other side on roll) into this side's
(1 - win, lose with mars, win with mars). The three outputs learn by cross-entropy (their
gradient is prediction minus target) with Adam (Kingma and Ba, 2015). Games alternate between
the traditional and the tournament rules (the rule set is an input: nardy/net.py).

    nice -n 10 .venv/bin/python -m bench.train_net --seed 1 --games 100000 [--rule-set both]
        [--every 2000] [--check-games 40] [--out .data/net] [--minutes M]

Every ``--every`` games it prints the learning curve: the TD loss (mean squared difference
between a position's value and its lambda-return, over the last games), and the net at 1-ply
against Master and Club on ``--check-games`` games with mirrored dice (each seed played twice,
sides swapped), and writes a checkpoint (``.data/net/latest.npz``; the best against Master so far
also as ``best.npz``), so the run can be stopped at any time.

    .venv/bin/python -m bench.train_net --install .data/net/best.npz

copies a checkpoint into the package (nardy/net_weights.npz) and writes its digest and
provenance to nardy/net_params.py. Randomness is here only, from ``--seed``.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import pprint
import random
import subprocess
import sys
import time
from pathlib import Path

# One thread of linear algebra: the matrices are small and the machine is shared; a second BLAS
# thread spinning on a busy core slowed the training games several times over.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402 (after the thread setting, which numpy reads once on import)

from bench.bot_strength import level_chooser, play_game, wilson
from nardy import START_BOARD, TOURNAMENT, TRADITIONAL, game_result, opponent_of
from nardy.board import Board, Side
from nardy.fastgen import end_boards_and_dice_played
from nardy.net import (
    HIDDEN,
    INPUTS,
    OUTPUTS,
    WEIGHTS_FILE,
    Net,
    as_array,
    encode,
    equities,
    finish,
    flip,
    read_net,
    write_net,
)
from nardy.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]
RULE_SETS = {
    "traditional": (TRADITIONAL,),
    "tournament": (TOURNAMENT,),
    "both": (TRADITIONAL, TOURNAMENT),
}
MAX_TURNS = 1000
LAMBDA = 0.7
LEARNING_RATE = 1e-3


def new_weights(rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {
        "hidden_weights": rng.normal(0.0, 1.0 / np.sqrt(INPUTS), (INPUTS, HIDDEN)),
        "hidden_bias": np.zeros(HIDDEN),
        "output_weights": rng.normal(0.0, 1.0 / np.sqrt(HIDDEN), (HIDDEN, OUTPUTS)),
        "output_bias": np.zeros(OUTPUTS),
    }


class Adam:
    """Adam's update (Kingma and Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015)."""

    def __init__(self, weights: dict[str, np.ndarray], rate: float) -> None:
        self.rate = rate
        self.first = {k: np.zeros_like(v) for k, v in weights.items()}
        self.second = {k: np.zeros_like(v) for k, v in weights.items()}
        self.steps = 0

    def step(self, weights: dict[str, np.ndarray], gradients: dict[str, np.ndarray]) -> None:
        self.steps += 1
        b1, b2 = 0.9, 0.999
        for key, gradient in gradients.items():
            self.first[key] = b1 * self.first[key] + (1 - b1) * gradient
            self.second[key] = b2 * self.second[key] + (1 - b2) * gradient * gradient
            m = self.first[key] / (1 - b1**self.steps)
            v = self.second[key] / (1 - b2**self.steps)
            weights[key] -= self.rate * m / (np.sqrt(v) + 1e-8)


def net_of(weights: dict[str, np.ndarray]) -> Net:
    return Net({k: v.astype(np.float32) for k, v in weights.items()}, {})


def self_play_game(net: Net, rules: RuleSet, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """One greedy 1-ply self-play game: every position's inputs (side on roll) and chances
    (the last row: the finished game, exact)."""
    board: Board = START_BOARD
    side: Side = "w"
    moved = {"w": False, "b": False}
    start = as_array([board])
    inputs = [encode(start, side, rules)[0]]
    values = [finish(net.forward(inputs[0][None, :]), start, side)[0]]
    for _ in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        ends, _played = end_boards_and_dice_played(board, side, dice, not moved[side], rules)
        moved[side] = True
        boards = list(ends)
        array = as_array(boards)
        opponent = opponent_of(side)
        encoded = encode(array, opponent, rules)
        chances = finish(net.forward(encoded), array, opponent)
        best = int(np.argmax(-equities(chances)))
        board, side = boards[best], opponent
        inputs.append(encoded[best])
        values.append(chances[best])
        if game_result(board) is not None:
            return np.array(inputs), np.array(values)
    raise RuntimeError("a self-play game did not end")


def lambda_returns(values: np.ndarray, lam: float) -> np.ndarray:
    """Targets for positions 0..T-1 of one game (values[T] is the exact result)."""
    returns = np.empty_like(values[:-1])
    following = values[-1:]
    for t in range(len(values) - 2, -1, -1):
        following = (1 - lam) * flip(values[t + 1 : t + 2]) + lam * flip(following)
        returns[t] = following[0]
    return returns


def gradients(
    weights: dict[str, np.ndarray], inputs: np.ndarray, targets: np.ndarray
) -> tuple[dict[str, np.ndarray], float]:
    """Cross-entropy gradients of the three outputs toward ``targets``, and the squared error."""
    hidden = 1.0 / (1.0 + np.exp(-(inputs @ weights["hidden_weights"] + weights["hidden_bias"])))
    logits = hidden @ weights["output_weights"] + weights["output_bias"]
    outputs = 1.0 / (1.0 + np.exp(-np.clip(logits, -40, 40)))
    error = (outputs - targets) / len(inputs)
    back = (error @ weights["output_weights"].T) * hidden * (1.0 - hidden)
    return {
        "output_weights": hidden.T @ error,
        "output_bias": error.sum(axis=0),
        "hidden_weights": inputs.T @ back,
        "hidden_bias": back.sum(axis=0),
    }, float(((outputs - targets) ** 2).mean())


def train_game(
    weights: dict[str, np.ndarray], adam: Adam, rules: RuleSet, rng: random.Random, lam: float
) -> float:
    """Plays and learns one game; returns its TD loss (before the update)."""
    inputs, values = self_play_game(net_of(weights), rules, rng)
    targets = lambda_returns(values, lam)
    found, loss = gradients(weights, inputs[:-1].astype(np.float64), targets)
    adam.step(weights, found)
    return loss


# --- The learning curve: the net at 1-ply against a level, mirrored dice --------------------


def net_chooser(net: Net):
    """The net at 1-ply as a player of bot_strength.play_game."""

    def choose(board: Board, side: Side, dice, first_turn: bool, rules: RuleSet, seed: int):
        ends, _played = end_boards_and_dice_played(board, side, dice, first_turn, rules)
        boards = list(ends)
        chances = net.evaluate(as_array(boards), opponent_of(side), rules)
        return boards[int(np.argmax(-equities(chances)))]

    return choose


def mirrored_score(net: Net, level: str, games: int, seed: int, rule_sets: tuple) -> int:
    """Games the net wins of ``games`` (pairs: each seed once as White, once as Black)."""
    wins = 0
    for index in range(games):
        rules = rule_sets[(index // 2) % len(rule_sets)]
        net_side: Side = "w" if index % 2 == 0 else "b"
        players = {net_side: net_chooser(net), opponent_of(net_side): level_chooser(level)}
        wins += play_game(players, rules, seed + index // 2)[0] == net_side
    return wins


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def checkpoint_provenance(checkpoint: Path) -> dict[str, object]:
    data = checkpoint.read_bytes()
    return read_net(data, hashlib.sha256(data).hexdigest(), str(checkpoint)).provenance


def install(checkpoint: Path, training_commit: str | None, resumed_from: Path | None) -> None:
    """Copies a checkpoint into the package with its digest and provenance (``training_commit``
    names the commit the trainer ran from, when HEAD at the start was not yet it;
    ``resumed_from``, the checkpoint a run was resumed from, whose provenance it keeps)."""
    data = checkpoint.read_bytes()
    net = read_net(data, hashlib.sha256(data).hexdigest(), str(checkpoint))
    if training_commit:
        net.provenance["training_commit"] = training_commit
    if resumed_from:
        net.provenance["resumed_from"] = checkpoint_provenance(resumed_from)
    if training_commit or resumed_from:
        data = write_net(net.weights, net.provenance)
    digest = hashlib.sha256(data).hexdigest()
    (ROOT / "nardy" / WEIGHTS_FILE).write_bytes(data)
    provenance = pprint.pformat(net.provenance, width=92, sort_dicts=True)
    (ROOT / "nardy" / "net_params.py").write_text(
        '"""The learned evaluation\'s weights (nardy/net_weights.npz): their SHA-256, checked when\n'
        "they load (nardy/net.py), and their provenance, also stored inside the file. Written by\n"
        f"`.venv/bin/python -m bench.train_net --install {checkpoint}`. Do not edit by hand.\n"
        '"""\n\n'
        f'WEIGHTS_SHA256 = "{digest}"\n\n'
        f"PROVENANCE = {provenance}\n"
    )
    subprocess.run([sys.executable, "-m", "ruff", "format", "-q", "nardy/net_params.py"], cwd=ROOT)
    print(f"installed {checkpoint} as nardy/{WEIGHTS_FILE}, SHA-256 {digest}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--rule-set", choices=sorted(RULE_SETS), default="both")
    parser.add_argument("--every", type=int, default=2000)
    parser.add_argument("--check-games", type=int, default=40)
    parser.add_argument("--check-levels", default="master", help="levels the curve plays")
    parser.add_argument("--out", type=Path, default=ROOT / ".data" / "net")
    parser.add_argument(
        "--minutes", type=float, default=0.0, help="stop after this long (0: no limit)"
    )
    parser.add_argument("--rate", type=float, default=LEARNING_RATE, help="Adam's step size")
    parser.add_argument("--resume", type=Path, help="start from this checkpoint's weights")
    parser.add_argument("--install", type=Path, help="install this checkpoint and exit")
    parser.add_argument("--training-commit", help="with --install: the commit that trained it")
    parser.add_argument(
        "--resumed-from", type=Path, help="with --install: the checkpoint its run resumed from"
    )
    arguments = parser.parse_args()
    if arguments.install:
        install(arguments.install, arguments.training_commit, arguments.resumed_from)
        return 0
    rule_sets = RULE_SETS[arguments.rule_set]
    rng = random.Random(arguments.seed)
    weights = new_weights(np.random.default_rng(arguments.seed))
    already = 0
    earlier: dict[str, object] | None = None
    if arguments.resume:
        resumed = read_net(
            arguments.resume.read_bytes(),
            hashlib.sha256(arguments.resume.read_bytes()).hexdigest(),
        )
        weights = {k: v.astype(np.float64) for k, v in resumed.weights.items()}
        already = int(resumed.provenance.get("games", 0))
        earlier = resumed.provenance
    adam = Adam(weights, arguments.rate)
    arguments.out.mkdir(parents=True, exist_ok=True)
    command = " ".join(["python -m bench.train_net"] + sys.argv[1:])
    trained_at = commit()
    started = time.perf_counter()
    losses: list[float] = []
    best_score = -1.0
    curve: list[dict[str, object]] = []
    print(
        f"training: seed {arguments.seed}, {arguments.games} games, rules {arguments.rule_set}, "
        f"lambda {LAMBDA}, Adam {arguments.rate}, {INPUTS}-{HIDDEN}-{OUTPUTS}",
        flush=True,
    )
    for game in range(1, arguments.games + 1):
        rules = rule_sets[game % len(rule_sets)]
        losses.append(train_game(weights, adam, rules, rng, LAMBDA))
        out_of_time = arguments.minutes and time.perf_counter() - started > 60 * arguments.minutes
        if game % arguments.every and game != arguments.games and not out_of_time:
            continue
        elapsed = time.perf_counter() - started
        net = net_of(weights)
        check_seed = 7_000_000 + game
        point: dict[str, object] = {
            "games": already + game,
            "seconds": round(elapsed),
            "td_loss": round(float(np.mean(losses[-arguments.every :])), 5),
        }
        for level in arguments.check_levels.split(","):
            wins = mirrored_score(net, level, arguments.check_games, check_seed, rule_sets)
            low, high = wilson(wins, arguments.check_games)
            point[f"vs_{level}"] = [wins, arguments.check_games, round(low, 3), round(high, 3)]
        curve.append(point)
        master_wins = point.get("vs_master", [0])[0]  # type: ignore[index]
        against = ", ".join(
            f"vs {name[3:]} {figures[0]}/{arguments.check_games}"  # type: ignore[index]
            for name, figures in point.items()
            if name.startswith("vs_")
        )
        print(
            f"games {already + game}: {elapsed:.0f} s, TD loss {point['td_loss']}, {against}",
            flush=True,
        )
        provenance = {
            "command": command,
            "seed": arguments.seed,
            "games": already + game,
            "rule_sets": arguments.rule_set,
            "lambda": LAMBDA,
            "learning_rate": arguments.rate,
            "layers": [INPUTS, HIDDEN, OUTPUTS],
            "training_commit": trained_at,
            "trained_on": datetime.date.today().isoformat(),
            "training_seconds": round(elapsed),
            "curve": curve,
        }
        if earlier:
            provenance["resumed_from"] = earlier
        data = write_net(weights, provenance)
        (arguments.out / "latest.npz").write_bytes(data)
        (arguments.out / f"games-{already + game}.npz").write_bytes(data)
        score = master_wins
        if score >= best_score:
            best_score = score
            (arguments.out / "best.npz").write_bytes(data)
        if out_of_time:
            break
    print(f"done: {len(losses)} games in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
