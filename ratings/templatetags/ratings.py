"""Showing ratings: whole numbers, "?" while provisional (ratings/elo.py), and a match's changes."""

from __future__ import annotations

from django import template

from ratings import elo
from ratings.models import INITIAL_RATING, Rating, RatingChange

register = template.Library()


@register.filter
def rating_text(rating: Rating | None) -> str:
    """`1534`, or `1534?` while provisional; `1500?` for a player without a rated match."""
    if rating is None:
        return f"{INITIAL_RATING}?"
    return f"{rating.value}{'?' if elo.is_provisional(rating.experience) else ''}"


@register.filter
def signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"{number}" if number < 0 else "±0"


@register.inclusion_tag("ratings/_match_changes.html")
def match_rating_changes(match) -> dict:
    """The rating change of each player of a finished rated match (match page, replay)."""
    changes = []
    if match.rated and match.status == "finished":
        changes = list(
            RatingChange.objects.filter(match=match, reverted_at__isnull=True)
            .select_related("user")
            .order_by("-won")
        )
    return {"changes": changes}
