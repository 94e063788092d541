"""Rating writes. Called inside the match service's transaction when a rated match ends."""

from __future__ import annotations

from ratings.elo import updated_rating
from ratings.models import Rating, RatingChange


def ratings_for_update(user_ids: list[int]) -> dict[int, Rating]:
    """The players' Rating rows, created at 1500 when missing, locked in id order (no deadlock)."""
    for user_id in user_ids:
        Rating.objects.get_or_create(user_id=user_id)
    rows = Rating.objects.select_for_update().filter(user_id__in=user_ids).order_by("user_id")
    return {row.user_id: row for row in rows}


def rating_apply_match(*, match, winner_id: int, loser_id: int) -> None:
    """Update both players' Elo for a finished rated match (idempotent per match)."""
    if RatingChange.objects.filter(match=match).exists():
        return
    rows = ratings_for_update([winner_id, loser_id])
    winner, loser = rows[winner_id], rows[loser_id]
    winner_after = updated_rating(winner.value, loser.value, 1.0, winner.matches)
    loser_after = updated_rating(loser.value, winner.value, 0.0, loser.matches)
    RatingChange.objects.bulk_create(
        [
            RatingChange(user_id=winner_id, match=match, before=winner.value, after=winner_after),
            RatingChange(user_id=loser_id, match=match, before=loser.value, after=loser_after),
        ]
    )
    winner.value, winner.matches, winner.wins = winner_after, winner.matches + 1, winner.wins + 1
    loser.value, loser.matches = loser_after, loser.matches + 1
    Rating.objects.bulk_update([winner, loser], ["value", "matches", "wins"])
