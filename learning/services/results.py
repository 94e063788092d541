"""A finished match counted in its people's statistics lines: per match length and, against the
computer, per level (docs/features.md, "A player's statistics"); games' `match_finished`, after
the ending's commit. The rule sets' counts are ratings' (ratings/counts.py), shown beside them.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from games.models import Game, GameResult, Match, MatchStatus
from learning.models import CountedResult, StatKind, StatLine


def statistics_count_match(*, match_id: int) -> bool:
    """Count a finished match once (its CountedResult row: whoever inserts it second waits for
    the first to commit, then finds it). Returns whether this call counted it."""
    with transaction.atomic():
        match = Match.objects.select_related("creator", "opponent").filter(pk=match_id).first()
        if match is None or match.status != MatchStatus.FINISHED or match.opponent is None:
            return False
        _, created = CountedResult.objects.get_or_create(match=match)
        if not created:
            return False
        mars_by_seat = [0, 0]
        for game in Game.objects.filter(match=match, result=GameResult.MARS).only(
            "white_seat", "winner_side"
        ):
            mars_by_seat[game.seat_of_side(game.winner_side)] += 1
        seats = sorted([(match.creator, 0), (match.opponent, 1)], key=lambda pair: pair[0].pk)
        for user, seat in seats:
            if user.is_bot:
                continue
            other = match.opponent if seat == 0 else match.creator
            lines = [(StatKind.LENGTH, str(match.length))]
            if other.is_bot:
                lines.append((StatKind.LEVEL, other.bot_level))
            for kind, key in lines:
                StatLine.objects.bulk_create(
                    [StatLine(user=user, kind=kind, key=key)], ignore_conflicts=True
                )
                StatLine.objects.filter(user=user, kind=kind, key=key).update(
                    played=F("played") + 1,
                    won=F("won") + int(match.winner_id == user.pk),
                    mars_given=F("mars_given") + mars_by_seat[seat],
                    mars_taken=F("mars_taken") + mars_by_seat[1 - seat],
                )
        return True
