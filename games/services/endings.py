"""How a match ends other than by its last game: resign or leave, claim an abandoned match, abort
before each player has moved, and a moderator's ban.

Each command opens `transaction.atomic()` and locks the Match row first (`runners.locked`); the
engine (nardy/match) decides what happens, a refused command raises `CommandError` and
changes nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from games import presence
from games.models import Match, MatchStatus
from games.services.context import Locked
from games.services.runners import locked
from nardy import match as engine


def match_resign(*, user, match_id: int, left_table: bool = False) -> Match:
    """Resigning (or leaving the table) loses the whole match (docs/rules.md, Who starts, colours,
    games and matches). Locks the match row."""
    with transaction.atomic():
        context = locked(match_id)
        seat = context.seat_of(user)
        context.run(
            lambda state: engine.resign(state, seat=seat, now=context.now, left_table=left_table)
        )
        context.save()
    return context.match


def match_claim_abandoned(*, user, match_id: int) -> Match:
    """Claim the match of an opponent who has been away longer than the reconnect window: a win,
    reason `abandoned`, rated as the match was. Locks the match row; refused while the opponent is
    at the table or still within the window (docs/rules.md "Platform rules", Disconnects;
    docs/protocol.md `claim`). The window never runs before the match started: an opponent who has
    not come since has it from the start, one who left since has it from leaving
    (games/presence.py). A bot has no socket but never leaves: it is always at the table."""
    with transaction.atomic():
        context = locked(match_id)
        seat = context.seat_of(user)
        away_ms = None  # at the table
        if context.match.status == MatchStatus.ACTIVE and not context.plays_bot(1 - seat):
            away_ms = presence.seat_away_ms(match_id, 1 - seat, started_at=context.match.started_at)
        window_ms = settings.RECONNECT_WINDOW_SECONDS * 1000
        context.run(
            lambda state: engine.claim_abandoned(
                state, seat=seat, now=context.now, away_ms=away_ms, window_ms=window_ms
            )
        )
        context.save()
    return context.match


def match_abort(*, user, match_id: int) -> Match:
    """Call the match off before each player has made a first move: no result, unrated, not
    counted (docs/rules.md, Platform rules, Abort); the engine remembers the aborting seat. Locks
    the match row."""
    with transaction.atomic():
        context = locked(match_id)
        seat = context.seat_of(user)
        context.run(lambda state: engine.abort_before_start(state, seat=seat, now=context.now))
        context.save()
    return context.match


def matches_end_for_ban(*, user_id: int) -> list[int]:
    """A moderator banned the user (moderation.services.user_ban, inside its transaction): each
    active match of theirs ends at once as their loss (reason `banned`, rated as the match was),
    their open challenges are withdrawn. Locks each match row in turn (`runners.locked`); the
    events are published after commit, so the opponent sees why. Returns the match ids ended."""
    ended = []
    mine = Match.objects.filter(
        Q(creator_id=user_id) | Q(opponent_id=user_id),
        status__in=[MatchStatus.ACTIVE, MatchStatus.OPEN],
    ).order_by("pk")
    for match_id in mine.values_list("pk", flat=True):
        with transaction.atomic():
            if _end_for_ban(locked(match_id), user_id):
                ended.append(match_id)
    return ended


def _end_for_ban(context: Locked, user_id: int) -> bool:
    match, now = context.match, context.now
    if match.status == MatchStatus.ACTIVE:
        seat = match.seat_of(user_id)
        context.run(lambda state: engine.ban(state, seat=seat, now=now))  # type: ignore[arg-type]
    elif match.status == MatchStatus.OPEN:
        context.run(lambda state: engine.cancel(state, now=now))
    else:
        return False  # it ended while we waited for its lock
    context.save()
    return True
