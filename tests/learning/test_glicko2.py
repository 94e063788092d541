"""Glicko-2 (learning/glicko2.py) against the worked example of Glickman's "Example of the
Glicko-2 system" (2013), and the bounds of one attempt."""

from __future__ import annotations

import pytest

from learning import glicko2
from learning.glicko2 import Glicko, attempt, rate
from tests.pure_modules import django_modules_loaded_by


def test_the_papers_worked_example():
    # The paper: a 1500 player (RD 200, σ 0.06, τ 0.5) beats a 1400 (RD 30), loses to a 1550
    # (RD 100) and to a 1700 (RD 300): r' = 1464.06, RD' = 151.52, σ' = 0.05999. The paper
    # rounds every intermediate value (μ' = -0.2069), so r' is met to within its last digit.
    player = Glicko(1500, 200, 0.06)
    games = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    after = rate(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    after = rate(Glicko(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx(((100 / 173.7178) ** 2 + 0.06**2) ** 0.5 * 173.7178)


@pytest.mark.parametrize("solved", [True, False])
def test_an_attempt_moves_the_player_and_the_exercise_apart(solved):
    player, exercise = attempt(Glicko(), Glicko(), solved)
    assert (player.rating > 1500) is solved and (exercise.rating < 1500) is solved
    assert player.rating - 1500 == pytest.approx(1500 - exercise.rating)
    assert player.deviation < glicko2.INITIAL_DEVIATION


def test_the_deviation_stays_within_its_bounds():
    player, exercise = Glicko(1500, glicko2.SMALLEST_DEVIATION, 0.06), Glicko(1500, 50, 0.06)
    for _ in range(200):
        player, exercise = attempt(player, exercise, True)
    assert player.deviation >= glicko2.SMALLEST_DEVIATION
    assert exercise.deviation >= glicko2.SMALLEST_DEVIATION


@pytest.mark.integration
def test_the_ratings_and_positions_load_no_django():
    assert django_modules_loaded_by("learning.glicko2") == []
    assert django_modules_loaded_by("learning.positions") == []
