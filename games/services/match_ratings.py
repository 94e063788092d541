"""A rated match's end in the ratings (ratings/services.py), inside the command's transaction:
both players' changes, and their ratings as the match's events show them from then on."""

from __future__ import annotations

from typing import Any

from games.models import Match
from ratings.models import ShownRating
from ratings.selectors import ratings_of
from ratings.services import rating_apply_match


def match_ratings_apply(
    *, match: Match, winner_seat: int
) -> tuple[dict[int, Any], dict[int, ShownRating]]:
    """The one call at a rated match's end: (each player's change, each player's new rating),
    by user id. Applying it again changes nothing (ratings/services.py)."""
    applied = rating_apply_match(
        match=match,
        winner_id=match.player_id(winner_seat),  # type: ignore[arg-type]
        loser_id=match.player_id(1 - winner_seat),  # type: ignore[arg-type]
    )
    return applied, ratings_of([match.creator_id, match.opponent_id])  # type: ignore[list-item]
