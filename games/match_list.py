"""A player's list of matches, newest first, keyset-paged: the profile's match list."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import F, Value
from django.db.models.lookups import GreaterThan, LessThan

from games.models import Match, MatchStatus
from ratings.selectors import Row

MATCH_LIST_SIZE = 30  # a profile's page of matches
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_MATCH_KEY = re.compile(r"(\d{1,18})_(\d{1,18})", re.ASCII)


class MatchKey(NamedTuple):
    """A match's place in a player's list, newest first: (created_at, id), the id settling equal
    times. Written in links as "<microseconds since 1970>_<id>"."""

    created_at: datetime.datetime
    pk: int

    @property
    def text(self) -> str:
        return f"{(self.created_at - _EPOCH) // datetime.timedelta(microseconds=1)}_{self.pk}"

    @classmethod
    def parse(cls, text: str) -> MatchKey:
        """The key a link names; ValueError for anything else."""
        found = _MATCH_KEY.fullmatch(text)
        if found is None:
            raise ValueError(text)
        micros, pk = map(int, found.groups())
        try:
            return cls(_EPOCH + datetime.timedelta(microseconds=micros), pk)
        except OverflowError:
            raise ValueError(text) from None


_AFTER_EVERY_MATCH = MatchKey(datetime.datetime(9999, 12, 31, tzinfo=datetime.UTC), 2**63 - 1)


@dataclass(frozen=True)
class MatchListPage:
    """One page of a player's matches, newest first, and the keys its Newer and Older links
    continue from (None: no such page)."""

    matches: list[Match]
    newer: MatchKey | None
    older: MatchKey | None


def _seek(user, start: MatchKey, *, newer: bool, limit: int) -> list[MatchKey]:
    """The keys of the player's first `limit` matches after `start` going newer or older: as
    creator and as opponent, each an ordered range scan of its own (seat, created_at) index from
    `start`, merged. `creator OR opponent`, counted and read with OFFSET, read every match of the
    player up to the page (0.3-0.45 s a page at 100,000 matches, bench/profiles.py)."""
    order = ("created_at", "pk") if newer else ("-created_at", "-pk")
    beyond = GreaterThan if newer else LessThan
    after_start = beyond(
        Row(F("created_at"), F("pk")), Row(Value(start.created_at), Value(start.pk))
    )
    seats = []
    for seat in ("creator", "opponent"):
        rows = Match.objects.filter(after_start, **{seat: user})
        # Never a challenge that did not start; an open private one is its parties' alone.
        rows = rows.exclude(status=MatchStatus.CANCELLED)
        rows = rows.exclude(status=MatchStatus.OPEN, private=True).order_by(*order)
        seats.append(rows.values_list("created_at", "pk")[:limit])
    return [MatchKey(*row) for row in seats[0].union(seats[1], all=True).order_by(*order)[:limit]]


def player_match_page(
    user, *, older_than: MatchKey | None = None, newer_than: MatchKey | None = None
) -> MatchListPage:
    """The page of MATCH_LIST_SIZE matches of the player (cancelled challenges and open private
    ones left out) older than one key, or newer than one, or the newest; a few index range scans
    of at most a page each (keyset paging), however many matches the player has and however deep
    the page."""
    with _ordered_scans():
        return _match_page(user, older_than, newer_than)


@contextmanager
def _ordered_scans() -> Iterator[None]:
    """Bitmap scans off for the seeks, in a transaction. The statements are prepared
    (config/settings/), and the plan PostgreSQL keeps for any player is planned for a player
    of average size: a few matches a seat, which a bitmap scan and a sort fetch as cheaply as an
    ordered index scan, so which of the two it keeps is a near tie, settled by where the rows lie
    on disk. For a player of thousands the bitmap scan reads every match of the seat and sorts
    them; the ordered scan stops at the page (tests/ratings/test_profile_scale.py)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('enable_bitmapscan', 'off', true)")
        yield
        # Until the end of the transaction: back on for the rest of an enclosing one.
        cursor.execute("SELECT set_config('enable_bitmapscan', 'on', true)")


def _match_page(user, older_than: MatchKey | None, newer_than: MatchKey | None) -> MatchListPage:
    size = MATCH_LIST_SIZE
    if newer_than is not None:
        keys = _seek(user, newer_than, newer=True, limit=size + 1)
        if len(keys) > size:
            keys = keys[:size][::-1]
            older = keys[-1] if _seek(user, keys[-1], newer=False, limit=1) else None
            return _page(keys, newer=keys[0], older=older)
        older_than = None  # back at the top: the newest page, whole
    # The newest page starts below a key every match is below, so its query has the bound the
    # older pages have: statements are prepared (config/settings/), and the plan PostgreSQL kept
    # for an unbounded one sorted every match of the seat (38 ms at 50,000, bench/profiles.py).
    keys = _seek(user, older_than or _AFTER_EVERY_MATCH, newer=False, limit=size + 1)
    older = keys[size - 1] if len(keys) > size else None
    keys = keys[:size]
    newer = None
    if older_than is not None:
        newer = keys[0] if keys else older_than
        if not _seek(user, newer, newer=True, limit=1):
            newer = None
    return _page(keys, newer=newer, older=older)


def _page(keys: list[MatchKey], *, newer: MatchKey | None, older: MatchKey | None) -> MatchListPage:
    found = Match.objects.select_related("creator", "opponent", "winner").in_bulk(
        [key.pk for key in keys]
    )
    return MatchListPage([found[key.pk] for key in keys], newer=newer, older=older)
