"""Glicko-2 ratings for exercises and the players who solve them (docs/features.md, "Exercises").

Pure maths, no Django: Mark E. Glickman, "Example of the Glicko-2 system" (Boston University,
2013; http://www.glicko.net/glicko/glicko2.pdf), steps 1 to 8, with the Illinois algorithm of its
step 5 for the new volatility. As lichess rates its puzzles, every attempt is one rating period
of one game: the player against the exercise, and the exercise against the player, each rated
from the other's value before the attempt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # the paper's step 2: Glicko's scale to Glicko-2's
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
# The system constant τ: the paper suggests 0.3 to 1.2; a smaller value keeps the volatility
# steadier, which suits ratings moved by one attempt at a time.
TAU = 0.5
CONVERGENCE = 0.000001  # the paper's ε
# The deviation never goes below this: an exercise solved ten thousand times still moves a little
# (lichess keeps a floor too), nor above the starting one.
SMALLEST_DEVIATION = 45.0


@dataclass(frozen=True, slots=True)
class Glicko:
    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm (regula falsi)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, games: list[tuple[Glicko, float]], *, tau: float = TAU) -> Glicko:
    """The player's rating after one rating period of ``games``: (opponent, score) with score 1
    for a win, 0 for a loss, 0.5 for a draw. No game: only the deviation grows (step 6)."""
    mu, phi = (player.rating - INITIAL_RATING) / SCALE, player.deviation / SCALE
    if not games:
        phi_star = math.sqrt(phi * phi + player.volatility**2)
        return Glicko(player.rating, min(phi_star * SCALE, INITIAL_DEVIATION), player.volatility)
    opponents = [
        ((other.rating - INITIAL_RATING) / SCALE, other.deviation / SCALE, score)
        for other, score in games
    ]
    inverse_v = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in opponents:
        expected = _expected(mu, mu_j, phi_j)
        inverse_v += _g(phi_j) ** 2 * expected * (1.0 - expected)
        improvement += _g(phi_j) * (score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma = _new_volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(new_mu * SCALE + INITIAL_RATING, new_phi * SCALE, sigma)


def attempt(player: Glicko, exercise: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """One attempt as a game between the player and the exercise: both new ratings, each from
    the other's before, with the deviation kept within [SMALLEST_DEVIATION, INITIAL_DEVIATION]."""
    score = 1.0 if solved else 0.0
    return (
        _bounded(rate(player, [(exercise, score)])),
        _bounded(rate(exercise, [(player, 1.0 - score)])),
    )


def _bounded(value: Glicko) -> Glicko:
    deviation = min(max(value.deviation, SMALLEST_DEVIATION), INITIAL_DEVIATION)
    return Glicko(value.rating, deviation, value.volatility)
