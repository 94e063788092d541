"""The rows of the matches this process wrote last, kept for their next board command.

A player's turn is a run of commands on one socket, so one process (a roll, then two to four
steps): after a board command's guarded write (runners.py `play`), the match row and its game's
are exactly what the command wrote, at the row version the write returned. The next command of
that match on this process starts from them instead of reading them again (a round trip, the
widest read of the live path, and the rows built from it), and from the engine's state the
command left, which those rows were written from (games/services/state_rows.py), instead of
building it from them again, with the match section the clients last got. Nothing here
decides: the guarded write still writes only if neither row changed since, and a refused write
reads the rows and tries once more before the lock.

An entry is taken, never shared: `take` removes it, and the command's successful write puts the
rows back (`keep`), so two commands of one match never change one row object. It is used only
while the client's version is the version kept (a client that saw a newer event says the rows
changed elsewhere: another process, a clock, a moderator) and for `KEPT_SECONDS`: the players'
names, ratings and settings were read with the rows and are as old as the entry.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, NamedTuple

from games.models import Game, Match
from games.services.hot_path import Player, Versions
from nardy.match import MatchState

# How long the players' settings read with the rows may be used for (auto roll, "confirm my
# turn", play forced turns; a rating shown): a changed one applies from the next read.
KEPT_SECONDS = 10.0
# Matches kept per process at most, the least recently written dropped first: a few kB each.
KEPT_MATCHES = 4096


class Kept(NamedTuple):
    match: Match
    game: Game
    players: Sequence[Player]
    versions: Versions
    at: float  # time.monotonic() of the write
    # The engine's state the rows were written from (None: build it from the rows), and the
    # match section the command's clients last got (games/services/context.py `match_sent`).
    state: MatchState | None = None
    match_sent: dict[str, Any] | None = None


_kept: OrderedDict[int, Kept] = OrderedDict()
_guard = threading.Lock()


def take(match_id: int, version: int | None) -> Kept | None:
    """The kept rows of a match, removed from the keep, when they are fresh and at `version`
    (the version the client sent; None: any); None otherwise."""
    with _guard:
        kept = _kept.pop(match_id, None)
    if kept is None or time.monotonic() - kept.at > KEPT_SECONDS:
        return None
    if version is not None and version != kept.match.version:
        return None
    return kept


def keep(
    match: Match,
    game: Game,
    players: Sequence[Player],
    versions: Versions,
    *,
    state: MatchState | None = None,
    match_sent: dict[str, Any] | None = None,
) -> None:
    """Keep the rows a command just wrote at `versions`, for the match's next command, with the
    state they were written from and the match section last sent."""
    kept = Kept(match, game, players, versions, time.monotonic(), state, match_sent)
    with _guard:
        _kept[match.pk] = kept
        _kept.move_to_end(match.pk)
        while len(_kept) > KEPT_MATCHES:
            _kept.popitem(last=False)
