"""The tournament's one lock, and the order of every lock a tournament write takes.

Order: the tournament's advisory lock → its Player rows (`select_for_update(of=("self",))`, not
the users joined in: games/services/starts.py says why) → games' start locks and match rows
(games/services/starts.py, inside the start of a paired match). The pairing wave, a join, a
withdrawal, a pause, scoring a finished match and a moderator's removal all take the
tournament's lock first, so a player is paired by one wave at a time and scored once; games
tells tournaments of a match's end after its commit (games/hooks.py `match_ended`), outside the
match's lock, so nothing holding a match row waits for a tournament.
"""

from __future__ import annotations

from django.db import connection

# Advisory lock classes: pairing/locks.py has 15_001 and 15_002, games/services/starts.py 25_001.
TOURNAMENT_LOCK_CLASS = 35_001
INT4 = 2**31


def lock_tournament(tournament_id: int) -> None:
    """One write to this tournament's players at a time; held until the transaction ends."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, %s)", [TOURNAMENT_LOCK_CLASS, tournament_id % INT4]
        )
