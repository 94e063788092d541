"""The match endings outside the board: resign or leave, a ban, a claim on an abandoned match,
an abort, a withdrawn challenge. Each decides its one event and returns (new state, events)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from .events import Cancelled, Event, MatchOver, apply_event
from .operations import require_status
from .state import MatchRuleError, MatchState


def resign(
    state: MatchState, *, seat: int, now: datetime, left_table: bool = False
) -> tuple[MatchState, list[Event]]:
    """Resigning, or leaving the table, loses the whole match (docs/rules.md)."""
    require_status(state, "active", "match_not_active", "this match is not being played")
    event = MatchOver(
        winner_seat=1 - seat,
        reason="left" if left_table else "resigned",
        at=now,  # type: ignore[arg-type]
    )
    return apply_event(state, event), [event]


def ban(state: MatchState, *, seat: int, now: datetime) -> tuple[MatchState, list[Event]]:
    """A moderator banned a player: the match ends at once as that seat's loss, like resigning
    (docs/protocol.md, end_reason `banned`), and is rated as it was."""
    require_status(state, "active", "match_not_active", "this match is not being played")
    event = MatchOver(winner_seat=1 - seat, reason="banned", at=now)  # type: ignore[arg-type]
    return apply_event(state, event), [event]


def claim_abandoned(
    state: MatchState, *, seat: int, now: datetime, away_ms: int | None, window_ms: int
) -> tuple[MatchState, list[Event]]:
    """``seat`` claims the match of an opponent who stayed away past the reconnect window
    (docs/rules.md, Platform rules, Disconnects: the Serbian page's minute to come back): a win,
    reason ``abandoned``. How long the opponent has been away is the site's knowledge
    (games/presence.py), passed in: ``away_ms`` None while they are at the table (the computer
    always is), ``window_ms`` the window's length."""
    require_status(state, "active", "match_not_active", "this match is not being played")
    if state.clock.correspondence:
        # Nobody sits at a correspondence table: its days per turn are the only limit
        # (docs/rules.md, Platform rules, Correspondence).
        raise MatchRuleError("correspondence_no_claim", "a correspondence match has no table")
    if away_ms is None:
        raise MatchRuleError("opponent_present", "your opponent is at the table")
    if away_ms < window_ms:
        seconds = (window_ms - away_ms + 999) // 1000
        raise MatchRuleError(
            "reconnect_window", f"your opponent may still come back: {seconds} s left",
            seconds=seconds,
        )  # fmt: skip
    event = MatchOver(winner_seat=seat, reason="abandoned", at=now)  # type: ignore[arg-type]
    return apply_event(state, event), [event]


def abort(state: MatchState, *, now: datetime) -> tuple[MatchState, list[Event]]:
    """An active match nobody plays any more ends without a winner (unrated)."""
    require_status(state, "active", "match_not_active", "this match is not being played")
    event = MatchOver(winner_seat=None, reason="aborted", at=now)
    return apply_event(state, event), [event]


def abort_before_start(
    state: MatchState, *, seat: int, now: datetime
) -> tuple[MatchState, list[Event]]:
    """A player calls the match off before each side has made a first move: no winner, unrated,
    and the aborting seat is remembered (a player who aborts often is kept out of the pool)."""
    require_status(state, "active", "match_not_active", "this match is not being played")
    if not state.abortable:
        raise MatchRuleError("not_abortable", "both players have moved; resign instead")
    event = MatchOver(winner_seat=None, reason="aborted", at=now, aborted_by=seat)  # type: ignore[arg-type]
    return apply_event(state, event), [event]


def cancel(
    state: MatchState, *, now: datetime, seat: int | None | Literal["site"] = "site"
) -> tuple[MatchState, list[Event]]:
    """An open challenge is withdrawn before anyone accepts it: by its creator (``seat`` 0; any
    other asker is refused), or by the site (the creator's other match started, a ban)."""
    if seat != "site" and seat != 0:
        raise MatchRuleError("not_a_player", "only the creator can cancel a challenge")
    require_status(state, "open", "match_not_active", "this challenge is no longer open")
    event = Cancelled(at=now)
    return apply_event(state, event), [event]
