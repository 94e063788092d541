"""The turn clock and the reserve bank (RULES.md "Platform rules": 30-120 s per turn, optionally a
reserve bank used once the turn time is gone). Times are passed in; nothing here reads a clock.

The one place this arithmetic is written: the match state machine (``match.py``) spends reserves
and sets deadlines with it, and the wire format (``games/protocol.py``) shows the running clock
with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


def elapsed_ms(turn_started_at: datetime, now: datetime) -> int:
    """Whole milliseconds since the turn started (never negative)."""
    return max(0, int((now - turn_started_at).total_seconds() * 1000))


def overrun_ms(turn_seconds: int | None, turn_started_at: datetime, now: datetime) -> int:
    """Time spent beyond the turn allowance: what comes out of the reserve bank."""
    if not turn_seconds:
        return 0
    return max(0, elapsed_ms(turn_started_at, now) - turn_seconds * 1000)


def reserve_after(
    turn_seconds: int | None, reserve_ms: int, turn_started_at: datetime, now: datetime
) -> int:
    """The mover's reserve bank after a turn (or a moment of it) that lasted until ``now``."""
    return max(0, reserve_ms - overrun_ms(turn_seconds, turn_started_at, now))


def turn_deadline(
    turn_seconds: int | None, reserve_ms: int, turn_started_at: datetime
) -> datetime | None:
    """When the turn runs out: turn time plus what is left of the mover's reserve (None when
    untimed)."""
    if not turn_seconds:
        return None
    return turn_started_at + timedelta(seconds=turn_seconds, milliseconds=reserve_ms)


@dataclass(frozen=True)
class ClockReading:
    """The clock as the players see it at one moment."""

    turn_ms_left: int | None  # None when untimed or not running
    mover_reserve_ms: int  # the mover's reserve after the overrun so far


def read_clock(
    turn_seconds: int | None, reserve_ms: int, turn_started_at: datetime, now: datetime
) -> ClockReading:
    """The running turn's clock at ``now`` for a mover holding ``reserve_ms``."""
    if not turn_seconds:
        return ClockReading(None, reserve_ms)
    left = max(0, turn_seconds * 1000 - elapsed_ms(turn_started_at, now))
    return ClockReading(left, reserve_after(turn_seconds, reserve_ms, turn_started_at, now))
