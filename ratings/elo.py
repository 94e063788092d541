"""The FIBS rating formula for matches of length n (pure math: no Django, no clock).

Source: FIBS `help formula` (the First Internet Backgammon Server's own text), reproduced in the
Backgammon FAQ, https://www.bkgm.com/rgb/rgb.cgi?view+1093 and the FIBS Ratings glossary,
http://fibs.com/macfibs/help/glossary/pages/Ratings.html:

    D = abs(r1 - r2)
    P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1)          the underdog's chance to win the match
    P = P_upset if the favourite wins, 1 - P_upset if the underdog wins
    K = max(1, 5 - experience / 100)                     each player's own K
    winner: + 4 * K * sqrt(n) * P        loser: - 4 * K * sqrt(n) * P

`experience` is the sum of the lengths of the player's finished rated matches before this one
(the FAQ text: "the sum of the lengths of all matches a player has finished"). Longer matches move
ratings more (sqrt(n)) and count a rating gap more (luck matters less over more points); new
players move faster (K up to 5, 1 from 400 experience on).

Ratings are Decimals: the change is computed with 28 significant digits and kept to
`RATING_PLACES`, so after = before + delta holds exactly and a reverted change is taken back
exactly. Pages show whole numbers (`shown`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal

INITIAL_RATING = Decimal(1500)  # docs/rules.md, Platform rules: every player starts at 1500
RATING_PLACES = Decimal("0.0001")  # stored precision (ratings.models DecimalField places)
# Under this much experience a rating is provisional: shown with "?", kept off the rating board
# (a few lucky wins must not top it). 50 is e.g. fifty 1-point matches or ten 5-point matches.
PROVISIONAL_EXPERIENCE = 50

_MATH = Context(prec=28)
_ONE, _FOUR, _FIVE, _TEN = Decimal(1), Decimal(4), Decimal(5), Decimal(10)


@dataclass(frozen=True)
class Side:
    """One player before the match."""

    rating: Decimal
    experience: int


@dataclass(frozen=True)
class Result:
    winner_delta: Decimal  # >= 0
    loser_delta: Decimal  # <= 0


def upset_probability(difference: Decimal, length: int) -> Decimal:
    """P_upset: the chance that the lower-rated player wins an n-point match."""
    if length < 1:
        raise ValueError(f"match length must be at least 1, not {length}")
    exponent = _MATH.divide(_MATH.multiply(abs(difference), Decimal(length).sqrt(_MATH)), 2000)
    return _MATH.divide(_ONE, _MATH.add(_MATH.power(_TEN, exponent), _ONE))


def k_factor(experience: int) -> Decimal:
    """K = max(1, 5 - experience / 100)."""
    if experience < 0:
        raise ValueError(f"experience cannot be negative ({experience})")
    return max(_ONE, _FIVE - _MATH.divide(Decimal(experience), 100))


def match_result(*, winner: Side, loser: Side, length: int) -> Result:
    """Both players' rating changes for a match of `length` points won by `winner`."""
    upset = upset_probability(winner.rating - loser.rating, length)
    # The favourite is the higher rating; at equal ratings P_upset is 1/2 either way.
    p = upset if winner.rating >= loser.rating else _ONE - upset
    scale = _MATH.multiply(_MATH.multiply(_FOUR, Decimal(length).sqrt(_MATH)), p)
    return Result(
        winner_delta=_places(_MATH.multiply(k_factor(winner.experience), scale)),
        loser_delta=-_places(_MATH.multiply(k_factor(loser.experience), scale)),
    )


def is_provisional(experience: int) -> bool:
    return experience < PROVISIONAL_EXPERIENCE


def shown(rating: Decimal) -> int:
    """The whole number a page shows (half up, like PostgreSQL's round(numeric) used by the
    stored `Rating.value` column)."""
    return int(rating.quantize(_ONE, rounding=ROUND_HALF_UP))


def _places(value: Decimal) -> Decimal:
    return value.quantize(RATING_PLACES, rounding=ROUND_HALF_UP)
