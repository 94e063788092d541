"""Elo (pure math). Expected score and update as in the FIDE Handbook B.02 §8 (the logistic
400-point curve), with K = 32 for a player's first 30 rated matches and 20 afterwards (FIDE uses
40/20/10 by age and strength; we use the two values common on game sites). A match is one game of
Elo: the match winner scores 1. Differences beyond 400 are counted as 400 (FIDE's cap).
"""

from __future__ import annotations

K_NEW_PLAYER = 32
K_ESTABLISHED = 20
NEW_PLAYER_MATCHES = 30
MAX_DIFFERENCE = 400


def expected_score(rating: int, opponent_rating: int) -> float:
    difference = max(-MAX_DIFFERENCE, min(MAX_DIFFERENCE, opponent_rating - rating))
    return 1.0 / (1.0 + 10.0 ** (difference / 400.0))


def k_factor(rated_matches: int) -> int:
    return K_NEW_PLAYER if rated_matches < NEW_PLAYER_MATCHES else K_ESTABLISHED


def updated_rating(rating: int, opponent_rating: int, score: float, rated_matches: int) -> int:
    """The new rating after a match scored `score` (1 win, 0 loss)."""
    change = k_factor(rated_matches) * (score - expected_score(rating, opponent_rating))
    return rating + round(change)
