"""Self-play training works (bench/train_net.py): a few hundred games of TD(lambda) from random
weights give a network that beats a random mover, and whose predictions of the games' outcomes
on positions it never trained on get better. Slow (about a minute of one core): make test-all."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bench.bot_strength import level_chooser, play_game
from bench.selfplay import play
from bench.train_net import LAMBDA, Adam, mirrored_score, net_of, new_weights, train_game
from nardy import TOURNAMENT, TRADITIONAL
from nardy.net import as_array

pytestmark = pytest.mark.slow


def outcome_loss(weights, positions) -> float:
    """Mean squared error of P(win) against who really won, for the side on roll."""
    model = net_of(weights)
    errors = []
    for position in positions:
        chances = model.evaluate(as_array([position.board]), position.side, TRADITIONAL)
        errors.append((chances[0, 0] - position.won) ** 2)
    return float(np.mean(errors))


def test_a_few_hundred_self_play_games_beat_a_random_mover_and_predict_better() -> None:
    held_out = [p for seed in range(20_000_000, 20_000_012) for p in play(seed)][::3]
    weights = new_weights(np.random.default_rng(11))
    before_loss = outcome_loss(weights, held_out)
    before_wins = mirrored_score(net_of(weights), "beginner", 40, 500, (TRADITIONAL,))
    adam = Adam(weights, 0.01)
    rng = random.Random(11)
    td_losses = [
        train_game(weights, adam, (TRADITIONAL, TOURNAMENT)[game % 2], rng, LAMBDA)
        for game in range(300)
    ]
    after_loss = outcome_loss(weights, held_out)
    after_wins = mirrored_score(net_of(weights), "beginner", 40, 500, (TRADITIONAL,))
    assert after_wins >= 32, (before_wins, after_wins)  # 80 % of 40 mirrored games
    assert after_wins > before_wins
    assert after_loss < before_loss, (before_loss, after_loss)
    assert np.mean(td_losses[-50:]) < np.mean(td_losses[:50]), td_losses


def test_mirrored_games_replay_the_same_dice_whoever_plays_them() -> None:
    def recording(level: str, rolls: list):
        choose = level_chooser(level)

        def chooser(board, side, dice, first_turn, rules, seed):
            rolls.append(dice)
            return choose(board, side, dice, first_turn, rules, seed)

        return chooser

    first: list = []
    play_game({"w": recording("club", first), "b": recording("beginner", first)}, TRADITIONAL, 42)
    second: list = []
    play_game({"w": recording("beginner", second), "b": recording("club", second)}, TRADITIONAL, 42)
    common = min(len(first), len(second))
    assert common > 40 and first[:common] == second[:common]
