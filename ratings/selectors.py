from __future__ import annotations

from ratings.models import INITIAL_RATING, Rating


def ratings_of(user_ids: list[int]) -> dict[int, int]:
    """Current rating per user id (1500 for players who have not played a rated match)."""
    found = dict(Rating.objects.filter(user_id__in=user_ids).values_list("user_id", "value"))
    return {user_id: found.get(user_id, INITIAL_RATING) for user_id in user_ids}


def leaderboard(limit: int = 100):
    return (
        Rating.objects.filter(matches__gt=0, user__is_active=True)
        .select_related("user")
        .order_by("-value", "user__username")[:limit]
    )
