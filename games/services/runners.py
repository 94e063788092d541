"""How a match command reaches its context (games/services/context.py): `locked` for every
command, `play` for the players' board commands, which first try the rows read without the lock.

`locked(match_id)` locks the Match row (FOR UPDATE, our one actor per match) and loads the
current game and the players (games/services/hot_path.py: the lock, then one read), inside the
caller's transaction. `play` runs a board command on the rows kept from the match's last command
on this process (games/services/kept.py) or read without the lock, writes them only if neither
row changed meanwhile (one or two statements in autocommit), and falls back to the locked path
for everything else.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from config import metrics
from games.models import Game, Match
from games.services import kept
from games.services.context import Locked, NeedsLock, context_of
from games.services.hot_path import Player, Versions, load_unlocked, lock_and_load
from nardy.match import MatchState
from realtime.errors import CommandError


def play(match_id: int, command: Callable[[Locked], None], *, version: int | None = None) -> Match:
    """Run a player's board command (games/services/play.py), in one or two statements when
    nobody else writes the match meanwhile, else as every other command runs: locked, in a
    transaction. `version`: the match version the player sent, if any.

    First on the match as last committed, without a lock: the rows this process wrote for the
    match's last command when it holds them at `version` (games/services/kept.py), else read
    (hot_path.load_unlocked); written by one guarded statement that writes only if the match
    row and its game's are still the versions read (`save_guarded`). That is one or two round
    trips to PostgreSQL in autocommit instead of five (BEGIN, lock, read, write, COMMIT), and no
    row lock to log. Rows read so are as good as locked ones for the command: the guard refuses
    the write if anyone wrote either row in between, and a player's settings or rating read a
    moment before are ones this command may come before. Kept rows that another writer changed
    meanwhile are read again and the command tried once more. The locked path, which decides,
    runs the command again from the start when the write was refused, when the command was
    refused (a refusal is answered from the locked state, so its reason is never a race's), and
    when it begins or ends a game or the match (ratings, records and new rows stay with one
    transaction). Inside a transaction the caller opened (a test, a task's `atomic`) only the
    locked path runs: a refusing statement would abort the caller's transaction."""
    if not transaction.get_connection().in_atomic_block:
        outcome: Match | str | None = None
        held = kept.take(match_id, version)
        if held is not None:
            outcome = _unlocked(
                command, held.match, held.game, held.players, held.versions,
                state=held.state, match_sent=held.match_sent,
            )  # fmt: skip
        if held is None or outcome == "raced":
            loaded = load_unlocked(match_id)
            if loaded is not None:
                outcome = _unlocked(command, *loaded)
        if isinstance(outcome, Match):
            return outcome
        if outcome is not None:
            metrics.BOARD_COMMANDS_LOCKED.labels(outcome).inc()
    with transaction.atomic():
        context = locked(match_id)
        command(context)
        context.save()
    return context.match


def _unlocked(
    command: Callable[[Locked], None],
    match: Match,
    game: Game | None,
    players: Sequence[Player],
    versions: Versions,
    *,
    state: MatchState | None = None,
    match_sent: dict[str, Any] | None = None,
) -> Match | str:
    """`command` on rows read without the lock at `versions` (with the state they were written
    from and the match section last sent, when kept), written if neither changed: the match
    written (its rows kept for the next command), else why it must run again ("raced",
    "refused", or a NeedsLock reason)."""
    context = context_of(
        match, game, players, versions=versions, state=state, match_sent=match_sent
    )
    try:
        command(context)
        if not context.save_guarded():
            return "raced"
    except CommandError:
        return "refused"
    except NeedsLock as needs:
        return needs.reason
    kept.keep(
        context.match, context.game, players, context.versions,
        state=context.state, match_sent=context.match_sent,
    )  # fmt: skip
    # The caller gets a copy: the kept rows are the next command's to change, perhaps in another
    # thread before the caller has read this one's version.
    return copy.copy(context.match)


def locked(match_id: int) -> Locked:
    """Lock the match row (inside a transaction) and load it with its current game and players
    (games/services/hot_path.py: the lock, then one read)."""
    loaded = lock_and_load(match_id)
    if loaded is None:
        raise CommandError("not_found", _("There is no such match."))
    return context_of(*loaded)
