"""Who may call whom: read before every signalling frame is relayed (docs/protocol.md "Calls")."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Match, MatchStatus
from moderation.selectors import blocked_between
from realtime.errors import CommandError


@dataclass(frozen=True)
class CallPair:
    user_id: int
    opponent_id: int
    opponent_seat: int


def call_pair(*, match_id: int, user_id: int) -> CallPair:
    """The caller's opponent in this match, or the refusal: only the two players of an active
    match, neither a bot, a guest only in a casual match, and neither blocking the other."""
    match = (
        Match.objects.filter(pk=match_id)
        .only("status", "rated", "creator_id", "opponent_id")
        .first()
    )
    seat = match.seat_of(user_id) if match is not None else None
    if seat is None:
        raise CommandError("not_a_player", _("Only the two players can do that; you are watching."))
    if match.status != MatchStatus.ACTIVE:
        raise CommandError("match_not_active", _("Calls are only during the match."))
    opponent_id = match.player_id(1 - seat)
    players = {
        row["pk"]: row
        for row in User.objects.filter(pk__in=(user_id, opponent_id)).values(
            "pk", "is_bot", "is_guest"
        )
    }
    if any(row["is_bot"] for row in players.values()):
        raise CommandError("call_unavailable", _("The computer does not take calls."))
    if match.rated and any(row["is_guest"] for row in players.values()):
        raise CommandError("call_unavailable", _("Guests call only in casual matches."))
    if blocked_between(user_id, opponent_id):
        raise CommandError("blocked", _("You cannot call this player."))
    return CallPair(user_id, opponent_id, 1 - seat)


def call_blocked(*, match_id: int, user_id: int) -> bool:
    """True when the user and the opponent in this match block each other, either way."""
    match = Match.objects.filter(pk=match_id).only("creator_id", "opponent_id").first()
    seat = match.seat_of(user_id) if match is not None else None
    if seat is None or match.player_id(1 - seat) is None:
        return False
    return blocked_between(user_id, match.player_id(1 - seat))
