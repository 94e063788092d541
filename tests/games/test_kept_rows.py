"""The rows a board command's write leaves for the match's next command on this process
(games/services/kept.py): taken once, only at the client's version, only while fresh, and
never more than KEPT_MATCHES of them. The database side (what the kept rows hold, and a write
refused when another writer came first) is tests/games/test_unlocked_play.py."""

from __future__ import annotations

import pytest

from games.models import Game, Match
from games.services import kept


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(kept.time, "monotonic", lambda: now[0])
    return now


def keep(match_id: int, version: int) -> None:
    kept.keep(Match(pk=match_id, version=version), Game(pk=match_id), [], ("7", "7"))


def test_kept_rows_are_taken_once_and_only_at_the_clients_version(clock):
    keep(1, 5)
    assert kept.take(1, 6) is None  # the client saw a newer version: the rows changed elsewhere
    assert kept.take(1, 5) is None  # and the entry went with that look
    keep(1, 5)
    taken = kept.take(1, 5)
    assert taken is not None and taken.match.version == 5 and taken.versions == ("7", "7")
    assert kept.take(1, 5) is None  # taken: two commands never share the row objects
    keep(1, 5)
    assert kept.take(1, None) is not None  # a command sent without a version takes them too
    assert kept.take(2, None) is None


def test_kept_rows_go_stale_after_kept_seconds(clock):
    keep(3, 1)
    clock[0] += kept.KEPT_SECONDS - 0.01
    assert kept.take(3, 1) is not None
    keep(3, 1)
    clock[0] += kept.KEPT_SECONDS + 0.01
    assert kept.take(3, 1) is None  # the players' settings read with them are too old


def test_no_more_than_kept_matches_are_kept(clock, monkeypatch):
    monkeypatch.setattr(kept, "KEPT_MATCHES", 2)
    for match_id in (10, 11, 12):
        keep(match_id, 1)
    keep(11, 2)  # written again: the most recent now
    keep(13, 1)  # one too many: the least recently written (12) goes
    assert [kept.take(match_id, None) is not None for match_id in (10, 11, 12, 13)] == [
        False, True, False, True,
    ]  # fmt: skip
