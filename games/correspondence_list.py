"""A player's correspondence matches being played (docs/rules.md, Platform rules,
Correspondence), sorted by the time left on the running turn: the home page's "Your turn" list
(the viewer's turns) and the profile's Correspondence tab (all of them). One read over the
current games, through the partial indexes of games/models/match.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game, Match, MatchStatus, Phase, TimeControl
from games.services.follow_up import clock_seat


@dataclass(frozen=True)
class CorrespondenceRow:
    match: Match
    opponent_name: str
    deadline: datetime
    to_play: bool  # the player's clock runs: it is their turn (or their answer to a double)

    @property
    def seconds_left(self) -> int:
        return max(0, int((self.deadline - timezone.now()).total_seconds()))

    @property
    def time_left(self) -> str:
        return time_left_label(self.seconds_left)


def time_left_label(seconds: int) -> str:
    """ "2 days 3 hours", "5 hours 12 minutes", "40 minutes": the two largest units left."""
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    day_text = ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    hour_text = ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    minute_text = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    if days:
        return _("%(days)s %(hours)s") % {"days": day_text, "hours": hour_text}
    if hours:
        return _("%(hours)s %(minutes)s") % {"hours": hour_text, "minutes": minute_text}
    return minute_text


def correspondence_rows(player) -> list[CorrespondenceRow]:
    """The player's correspondence matches being played, the nearest deadline first."""
    games = (
        Game.objects.filter(
            Q(match__creator=player) | Q(match__opponent=player),
            match__time_control=TimeControl.CORRESPONDENCE,
            match__status=MatchStatus.ACTIVE,
            phase__in=[Phase.ROLL, Phase.MOVE],
            turn_deadline__isnull=False,
        )
        .select_related("match__creator", "match__opponent")
        .order_by("turn_deadline", "match_id")[: settings.CORRESPONDENCE_MATCHES_MAX]
    )
    rows = []
    for game in games:
        match = game.match
        seat = match.seat_of(player.pk)
        opponent = match.opponent if seat == 0 else match.creator
        rows.append(
            CorrespondenceRow(
                match=match,
                opponent_name=opponent.username if opponent is not None else "",
                deadline=game.turn_deadline,  # type: ignore[arg-type]
                to_play=clock_seat(game) == seat,
            )
        )
    return rows


def your_turn_rows(player) -> list[CorrespondenceRow]:
    """The correspondence turns waiting for the player, the nearest deadline first."""
    return [row for row in correspondence_rows(player) if row.to_play]
