"""The places of a finished tournament, kept on each player's row for the podium and the profiles'
history (docs/rules.md "Arena tournaments", item 4)."""

from __future__ import annotations

from tournaments.arena import Standing, rank
from tournaments.models import Player


def places_write(tournament_id: int) -> None:
    """Each ranked player's place, for the podium and the profiles' history (under the lock)."""
    rows = Player.objects.filter(tournament_id=tournament_id).values_list(
        "pk", "user_id", "points", "performance_total", "counted", "removed", "joined_at"
    )
    by_user = {}
    standings = []
    for order, (pk, user_id, points, total, counted, removed, _joined) in enumerate(
        sorted(rows, key=lambda row: (row[6], row[0]))
    ):
        by_user[user_id] = pk
        standings.append(
            Standing(user_id, points, total / counted if counted else None, order, removed)
        )
    changed = []
    for place, row in rank(standings):
        changed.append(Player(pk=by_user[row.user_id], final_place=place))
    Player.objects.bulk_update(changed, ["final_place"])
