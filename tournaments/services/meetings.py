"""Who met whom in an arena, and how fast each player begins matches (docs/rules.md "Arena
tournaments", item 2; the figures are tournaments/arena.py's).

The pairing wave reads, for its free players, their `ArenaPair` rows (how often and when each
pair last met) and how many arena matches each began in the last minute, and writes the rows of
the pairs it seats; the scoring counts a match left unplayed on its pair's row. Both run under
the tournament's lock (tournaments/locks.py), so the counts a wave reads are the ones it bumps.
The rows also make the moderators' list of repeated pairs (tournaments/admin.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime

from django.db.models import Q

from tournaments.arena import RATE_WINDOW, Met, flagged
from tournaments.models import ArenaPair, Pairing

PairKey = tuple[int, int]


def pair_key(first: int, second: int) -> PairKey:
    """A pair's user ids, the lower first, as its row keeps them."""
    return (first, second) if first < second else (second, first)


def met_among(tournament_id: int, user_ids: list[int]) -> dict[PairKey, tuple[Met, ArenaPair]]:
    """Every pair of `user_ids` who met in the tournament: one indexed read."""
    rows = ArenaPair.objects.filter(
        tournament_id=tournament_id, first_player_id__in=user_ids, second_player_id__in=user_ids
    )
    return {
        (row.first_player_id, row.second_player_id): (
            Met(row.matches, row.last_started_at, row.unplayed),
            row,
        )
        for row in rows
    }


def recent_starts(user_ids: list[int], now: datetime) -> Counter[int]:
    """How many arena matches (in any arena) each of `user_ids` began in the last RATE_WINDOW."""
    wanted = set(user_ids)
    since = now - RATE_WINDOW
    begun: Counter[int] = Counter()
    rows = Pairing.objects.filter(
        Q(first_id__in=user_ids) | Q(second_id__in=user_ids), created_at__gte=since
    ).values_list("first_id", "second_id")
    for first, second in rows:
        begun.update(user_id for user_id in (first, second) if user_id in wanted)
    return begun


def pairs_record(
    tournament_id: int,
    seated: Iterable[tuple[int, int]],
    met: dict[PairKey, tuple[Met, ArenaPair]],
    now: datetime,
) -> None:
    """One more meeting for each pair the wave seated: one statement for the whole wave."""
    rows = []
    for first, second in seated:
        key = pair_key(first, second)
        before = met.get(key)
        times, unplayed, flagged_at = 1, 0, None
        if before is not None:
            times, unplayed = before[0].times + 1, before[0].unplayed
            flagged_at = before[1].flagged_at
        if flagged_at is None and flagged(Met(times, now, unplayed)):
            flagged_at = now
        rows.append(
            ArenaPair(
                tournament_id=tournament_id, first_player_id=key[0], second_player_id=key[1],
                matches=times, unplayed=unplayed, last_started_at=now, flagged_at=flagged_at,
            )
        )  # fmt: skip
    ArenaPair.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["tournament", "first_player", "second_player"],
        update_fields=["matches", "last_started_at", "flagged_at"],
    )  # fmt: skip


def pair_unplayed(tournament_id: int, first: int, second: int, now: datetime) -> None:
    """Count a match of the pair left unplayed (and flag the pair when that makes it one)."""
    key = pair_key(first, second)
    row = (
        ArenaPair.objects.select_for_update()
        .filter(tournament_id=tournament_id, first_player_id=key[0], second_player_id=key[1])
        .first()
    )
    if row is None:  # paired before the pairs were kept
        return
    row.unplayed += 1
    if row.flagged_at is None and flagged(Met(row.matches, row.last_started_at, row.unplayed)):
        row.flagged_at = now
    row.save(update_fields=["unplayed", "flagged_at"])
