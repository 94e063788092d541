from __future__ import annotations

from games import services
from games.models import Match, MatchStatus


def finished_empty_match(creator, opponent) -> Match:
    """A match marked finished without a turn played: what the analysis's bounds need."""
    match = services.match_create(creator=creator, turn_seconds=60)
    Match.objects.filter(pk=match.pk).update(opponent=opponent, status=MatchStatus.FINISHED)
    return match
