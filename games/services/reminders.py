"""The reminder a day before a correspondence turn's deadline (docs/rules.md, Platform rules,
Correspondence), found by the beat's sweep (games/tasks.py) over the indexed `Game.turn_deadline`:
no task and no timer per open match.

A reminder is claimed by one upsert of the match's DeadlineReminder row that moves it on to the
new deadline and returns it only when it moved: two sweeps at once (a beat restarted twice) send
each reminder once. `correspondence_deadline_near` goes out after the claim's commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from games import hooks
from games.models import DeadlineReminder, Game, MatchStatus, Phase, TimeControl

REMINDER_LEAD = timedelta(days=1)


def reminder_lead(move_days: int) -> timedelta:
    """How long before its deadline a turn is reminded: a day, or half the turn on a clock of
    one day (a reminder at the turn's start would only repeat "your turn")."""
    return min(REMINDER_LEAD, timedelta(days=move_days) / 2)


def _clock_seat(cube_offer: int | None, white_seat: int, turn: str) -> int:
    """The seat whose clock runs (games/services/follow_up.py clock_seat, from values)."""
    if cube_offer is not None:
        return 1 - cube_offer
    return white_seat if turn == "w" else 1 - white_seat


def _claim(match_id: int, deadline: datetime) -> bool:
    """Move the match's reminder on to `deadline`; False when it was there already."""
    table = DeadlineReminder._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (match_id, deadline) VALUES (%s, %s) "  # noqa: S608 (our table)
            f"ON CONFLICT (match_id) DO UPDATE SET deadline = EXCLUDED.deadline "
            f"WHERE {table}.deadline <> EXCLUDED.deadline RETURNING match_id",
            [match_id, deadline],
        )
        return cursor.fetchone() is not None


def correspondence_reminders_send(*, limit: int = 500) -> int:
    """Claim and announce the reminders now due; returns how many went out."""
    now = timezone.now()
    due = (
        Game.objects.filter(
            turn_deadline__gt=now,
            turn_deadline__lte=now + REMINDER_LEAD,
            phase__in=[Phase.ROLL, Phase.MOVE],
            match__status=MatchStatus.ACTIVE,
            match__time_control=TimeControl.CORRESPONDENCE,
        )
        .exclude(match__deadline_reminder__deadline=F("turn_deadline"))
        .order_by("turn_deadline")
        .values_list(
            "match_id", "turn_deadline", "match__move_days", "cube_offer", "white_seat", "turn",
            "match__creator_id", "match__opponent_id",
        )[:limit]
    )  # fmt: skip
    sent = 0
    for match_id, deadline, days, cube_offer, white_seat, turn, creator_id, opponent_id in due:
        if deadline - reminder_lead(days) > now:
            continue
        user_id = (creator_id, opponent_id)[_clock_seat(cube_offer, white_seat, turn)]
        with transaction.atomic():
            still_open = Game.objects.filter(
                match_id=match_id, turn_deadline=deadline, phase__in=[Phase.ROLL, Phase.MOVE]
            ).exists()  # a step played since the read moved the deadline on
            if not still_open or not _claim(match_id, deadline):
                continue
            transaction.on_commit(
                partial(
                    hooks.announce_correspondence, hooks.correspondence_deadline_near,
                    "correspondence_deadline_near", user_id=user_id, match_id=match_id,
                    deadline=deadline,
                )
            )  # fmt: skip
        sent += 1
    return sent
