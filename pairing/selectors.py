"""Reads for pairing: pool sizes, a player's wait, and their record of aborts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Q
from django.utils import timezone

from games.forms import MatchCreateForm
from games.models import Match
from pairing.models import PairedWait, PoolEntry
from pairing.pools import TILES, Pool

# A player who aborted ABORTS_TO_WARN of their last RECENT_MATCHES started matches is warned and
# kept out of the pool for ABORT_COOLDOWN after their last abort, so aborting until a wanted
# opponent comes up does not pay.
RECENT_MATCHES = 10
ABORTS_TO_WARN = 3
ABORT_COOLDOWN = timedelta(minutes=5)


@dataclass(frozen=True)
class AbortRecord:
    aborts: int  # of the last RECENT_MATCHES started matches, aborted by this player
    kept_out_until: datetime | None  # set while the cooldown runs

    @property
    def warned(self) -> bool:
        return self.aborts >= ABORTS_TO_WARN


def abort_record(user_id: int, now: datetime) -> AbortRecord:
    recent = (
        Match.objects.filter(Q(creator_id=user_id) | Q(opponent_id=user_id))
        .filter(started_at__isnull=False)
        .order_by("-started_at")
        .values_list("creator_id", "aborted_by_seat", "finished_at")[:RECENT_MATCHES]
    )
    mine = [
        finished_at
        for creator_id, seat, finished_at in recent
        if seat is not None and (seat == 0) == (creator_id == user_id) and finished_at
    ]
    until = None
    if len(mine) >= ABORTS_TO_WARN and max(mine) + ABORT_COOLDOWN > now:
        until = max(mine) + ABORT_COOLDOWN
    return AbortRecord(aborts=len(mine), kept_out_until=until)


def pool_sizes() -> dict[str, int]:
    """Players waiting per pool key (a proposal's two players included)."""
    rows = PoolEntry.objects.values("rule_set_name", "length", "turn_seconds", "rated").annotate(
        waiting=Count("user")
    )
    return {
        Pool(row["rule_set_name"], row["length"], row["turn_seconds"], row["rated"]).key: row[
            "waiting"
        ]
        for row in rows
    }


def match_pool_key(match: Match) -> str:
    """The pool `match` was paired from ("" when it started another way): the match page's
    "New opponent" joins it again."""
    if match.turn_seconds is None or not PairedWait.objects.filter(match_id=match.pk).exists():
        return ""
    return Pool(match.rule_set_name, match.length, match.turn_seconds, match.rated).key


def player_wait(user_id: int) -> PoolEntry | None:
    return PoolEntry.objects.filter(user_id=user_id).select_related("proposal").first()


def play_page_pairing(user) -> dict:
    """The Play page's quick-pairing card: the tiles, the custom pool choices, and the player's
    abort warning."""
    record = abort_record(user.pk, timezone.now()) if user is not None else None
    form = MatchCreateForm()
    rule_set_labels = dict(form.fields["rule_set_name"].choices)
    return {
        "tiles": [
            {
                "key": tile.key,
                "rules": rule_set_labels[tile.rule_set_name],
                "length": tile.length,
                "seconds": tile.turn_seconds,
                "rated": tile.rated,
            }
            for tile in TILES
        ],
        "rule_sets": form.fields["rule_set_name"].choices,
        "lengths": [choice for choice in form.fields["length"].choices if choice[0] != ""],
        "seconds": [choice for choice in form.fields["turn_seconds"].choices if choice[0]],
        "abort_record": record,
    }
