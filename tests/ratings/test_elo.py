"""The FIBS formula (ratings/elo.py) against figures worked out by hand from its definition.

Each expected change below was computed on a pocket calculator, not by this code:
    P_upset = 1 / (10^(D·√n / 2000) + 1),   change = 4 · K · √n · P,   K = max(1, 5 − exp/100)
e.g. D = 200, n = 1:  10^0.1 = 1.258925, P_upset = 1 / 2.258925 = 0.442688;
     the favourite wins: 4 · 0.442688 = 1.7708; the underdog wins: 4 · 0.557312 = 2.2292.
"""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal

import pytest

from ratings import elo

EXPERIENCED = 1000  # K = 1
NEW = 0  # K = 5
ONE_UNIT = Decimal("0.0001")  # the stored precision: a calculator's last digit may differ by one

# (difference D, length n, favourite's gain when it wins, underdog's gain when it wins), K = 1.
TABLE = [
    (0, 1, "2.0000", "2.0000"),  # 4 · 1 · ½
    (0, 3, "3.4641", "3.4641"),  # 2 · √3
    (0, 5, "4.4721", "4.4721"),  # 2 · √5
    (0, 7, "5.2915", "5.2915"),  # 2 · √7
    (200, 1, "1.7708", "2.2292"),  # P_upset 0.442688
    (200, 3, "2.7823", "4.1459"),  # P_upset 0.401596
    (200, 5, "3.3456", "5.5987"),  # P_upset 0.374052
    (200, 7, "3.7278", "6.8552"),  # P_upset 0.352240
    (400, 1, "1.5475", "2.4525"),  # P_upset 0.386863
    (400, 3, "2.1514", "4.7768"),  # P_upset 0.310531
    (400, 5, "2.3535", "6.5907"),  # P_upset 0.263133
    (400, 7, "2.4152", "8.1678"),  # P_upset 0.228216
]


def close(actual: Decimal, expected: str) -> bool:
    return abs(actual - Decimal(expected)) <= ONE_UNIT


@pytest.mark.parametrize(("difference", "length", "favourite_wins", "underdog_wins"), TABLE)
def test_experienced_players(difference, length, favourite_wins, underdog_wins):
    favourite = elo.Side(Decimal(1500 + difference), EXPERIENCED)
    underdog = elo.Side(Decimal(1500), EXPERIENCED)

    won = elo.match_result(winner=favourite, loser=underdog, length=length)
    assert close(won.winner_delta, favourite_wins)
    # Between two experienced players (K = 1 both) what one gains the other loses.
    assert won.loser_delta == -won.winner_delta

    upset = elo.match_result(winner=underdog, loser=favourite, length=length)
    assert close(upset.winner_delta, underdog_wins)
    assert upset.loser_delta == -upset.winner_delta


@pytest.mark.parametrize(
    ("experience", "k"),
    [(0, "5"), (1, "4.99"), (50, "4.5"), (250, "2.5"), (399, "1.01"), (400, "1"), (5000, "1")],
)
def test_k_factor(experience, k):
    assert elo.k_factor(experience) == Decimal(k)


def test_new_players_move_five_times_faster():
    # Equal ratings, 1 point, both new: 4 · 5 · 1 · ½ = 10.
    result = elo.match_result(
        winner=elo.Side(Decimal(1500), NEW), loser=elo.Side(Decimal(1500), NEW), length=1
    )
    assert result.winner_delta == Decimal("10.0000")
    assert result.loser_delta == Decimal("-10.0000")


def test_each_player_uses_their_own_experience():
    # A new winner (K 5) beats an experienced loser (K 1) rated 200 above, 3 points:
    # P = 1 − 0.401596 = 0.598404; 4 · √3 · 0.598404 = 4.14586; ×5 = 20.7293 and ×1 = 4.1459.
    result = elo.match_result(
        winner=elo.Side(Decimal(1500), NEW), loser=elo.Side(Decimal(1700), EXPERIENCED), length=3
    )
    assert close(result.winner_delta, "20.7293")
    assert close(-result.loser_delta, "4.1459")
    # Half-way experience, K = 5 − 250/100 = 2.5: equal ratings, 7 points: 2.5 · 2·√7 = 13.2288.
    half = elo.match_result(
        winner=elo.Side(Decimal(1500), 250), loser=elo.Side(Decimal(1500), 250), length=7
    )
    assert close(half.winner_delta, "13.2288")


def test_longer_matches_count_more_and_luck_less():
    favourite, underdog = elo.Side(Decimal(1700), 1000), elo.Side(Decimal(1500), 1000)
    upsets = [elo.match_result(winner=underdog, loser=favourite, length=n) for n in (1, 3, 5, 7)]
    gains = [result.winner_delta for result in upsets]
    assert gains == sorted(gains)
    assert elo.upset_probability(Decimal(200), 7) < elo.upset_probability(Decimal(200), 1)


def test_probability_is_symmetric_in_the_sign_of_the_difference():
    assert elo.upset_probability(Decimal(-300), 5) == elo.upset_probability(Decimal(300), 5)


@pytest.mark.parametrize(
    ("rating", "shown"), [("1500.4999", 1500), ("1500.5", 1501), ("1612.0", 1612)]
)
def test_whole_numbers_shown(rating, shown):
    assert elo.shown(Decimal(rating)) == shown


@pytest.mark.parametrize(("experience", "provisional"), [(0, True), (49, True), (50, False)])
def test_provisional(experience, provisional):
    assert elo.is_provisional(experience) is provisional


def test_hostile_inputs_are_refused():
    with pytest.raises(ValueError):
        elo.upset_probability(Decimal(0), 0)
    with pytest.raises(ValueError):
        elo.k_factor(-1)


@pytest.mark.integration  # starts a process
def test_elo_does_not_import_django():
    code = "import sys, ratings.elo; assert not any(m.startswith('django') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)
