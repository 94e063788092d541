"""A rated match's end in the ratings (ratings/services.py), inside the command's transaction:
both players' changes, and their ratings as the match's events show them from then on (a
correspondence match's on the correspondence board: docs/rules.md, Correspondence). An app
above may withhold them (games/hooks.py `rating_withheld`: an arena match its loser left without
playing, docs/rules.md "Arena tournaments", item 3): then nothing changes, and the match shows no
rating change."""

from __future__ import annotations

from typing import Any

from games.hooks import rating_withheld
from games.models import Match
from ratings.models import ShownRating
from ratings.selectors import ratings_of
from ratings.services import rating_apply_match


def match_ratings_apply(
    *, match: Match, winner_seat: int
) -> tuple[dict[int, Any], dict[int, ShownRating]]:
    """The one call at a rated match's end: (each player's change, each player's new rating),
    by user id. Applying it again changes nothing (ratings/services.py)."""
    players = [match.creator_id, match.opponent_id]
    applied: dict[int, Any] = {}
    if not rating_withheld(match, 1 - winner_seat):
        applied = rating_apply_match(
            match=match,
            winner_id=match.player_id(winner_seat),  # type: ignore[arg-type]
            loser_id=match.player_id(1 - winner_seat),  # type: ignore[arg-type]
        )
    return applied, ratings_of(players, correspondence=match.correspondence)  # type: ignore[arg-type]
