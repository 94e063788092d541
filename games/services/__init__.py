"""Every write to matches and games: one function per command (docs/architecture.md "How code is
shaped here").

Each command opens `transaction.atomic()`, locks the Match row with `select_for_update()` first
(our one-actor-per-match), and goes load → engine → persist → publish (`context.py`): the match's
rules are decided by the pure engine (nardy/match), the rows are written through the ORM,
and what follows the commit (the versioned events, the lobby's notice, deadline and bot tasks) is
described in an `Effects` value (`follow_up.py`) that games/effects.py performs after commit. A
refused command raises `CommandError` and changes nothing.

- `lifecycle.py`: create, accept, cancel, a client seed, a paired match's start;
- `rematch.py`: offer, accept or decline a rematch;
- `starts.py`: one match at a time per player, shared by every path that starts a match, and
  `match_new`, the one builder of a match begun with both seats filled;
- `endings.py`: resign or leave, claim an abandoned match, abort, the end of a banned player's
  matches;
- `play.py`: roll, step, undo, and the cube's double, take and drop;
- `clocks.py`: turn deadlines and stale matches;
- the write path's parts: `runners.py` (how a command gets its context: `locked`, `play`),
  `context.py` (the locked state and rows), `state_rows.py` (state to rows and back),
  `hot_path.py` (the lock and load, the update), `follow_up.py` (what follows the commit),
  `match_ratings.py` (a rated end).
"""

from games.services.bots import bot_account, match_create_vs_bot
from games.services.clocks import (
    STALE_AFTER,
    TIMEOUTS_TO_LOSE,
    game_deadline_enforce,
    game_deadlines_due,
    matches_close_stale,
)
from games.services.endings import (
    match_abort,
    match_claim_abandoned,
    match_resign,
    matches_end_for_ban,
)
from games.services.lifecycle import (
    match_accept,
    match_cancel,
    match_client_seed,
    match_create,
)
from games.services.play import (
    game_cube_double,
    game_cube_drop,
    game_cube_take,
    game_roll,
    game_step_play,
    game_turn_confirm,
    game_turn_undo,
)
from games.services.rematch import match_rematch_decline, match_rematch_offer
from realtime.errors import CommandError

__all__ = [
    "STALE_AFTER",
    "TIMEOUTS_TO_LOSE",
    "CommandError",
    "game_cube_double",
    "game_cube_drop",
    "game_cube_take",
    "bot_account",
    "match_create_vs_bot",
    "game_deadline_enforce",
    "game_deadlines_due",
    "game_roll",
    "game_step_play",
    "game_turn_confirm",
    "game_turn_undo",
    "match_abort",
    "match_accept",
    "match_cancel",
    "match_claim_abandoned",
    "match_client_seed",
    "match_create",
    "match_rematch_decline",
    "match_rematch_offer",
    "match_resign",
    "matches_close_stale",
    "matches_end_for_ban",
]
