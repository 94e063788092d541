"""How a timed match counts its time (docs/rules.md, Platform rules: the three clocks).
Times are passed in; nothing here reads a clock.

The one place this arithmetic is written: the match state machine (``match/events.py``) spends
reserves and sets deadlines with it, and the wire format (``games/protocol``) shows the running
clock with it. Three time controls (``ruleset.TIME_CONTROLS``):

- ``turn``: ``turn_seconds`` per turn (roll and all steps); time beyond it comes out of the
  mover's reserve bank (``reserve_seconds`` for the match); the deadline is turn time + reserve.
- ``nardeon``: 12 s free per turn; beyond them the mover's 2-minute match reserve runs; no turn
  may last more than 60 s. The deadline is the earlier of "free time + what is left of the
  reserve" and "60 s after the turn started"; reaching it loses the match (``expiry_loses``).
- ``omerta``: 90 s, counted from the start of the turn and started again after each step that
  plays further into the turn than before (taking a step back gives no time back). No reserve.
- ``correspondence``: ``move_days`` days per turn (``ruleset.CORRESPONDENCE_DAYS``), no reserve;
  the server plays a turn that runs out, and a seat's missed turns are counted in a row: a turn
  it plays itself starts the count again (docs/rules.md, Platform rules, Correspondence).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .ruleset import (
    CORRESPONDENCE_DAYS,
    NARDEON_FREE_SECONDS,
    NARDEON_RESERVE_SECONDS,
    NARDEON_TURN_LIMIT_SECONDS,
    OMERTA_STEP_SECONDS,
    TIME_CONTROLS,
)


@dataclass(frozen=True)
class TimeControl:
    """A match's clock: its kind and, for the platform's ``turn`` clock, its two settings."""

    kind: str = "turn"
    turn_seconds: int | None = None
    reserve_seconds: int = 0
    move_days: int | None = None  # the correspondence clock's days per turn, and only its

    def __post_init__(self) -> None:
        if self.kind not in TIME_CONTROLS:
            raise ValueError(f"time control must be one of {TIME_CONTROLS}, got {self.kind!r}")
        if (self.kind == "correspondence") != (self.move_days is not None):
            raise ValueError("days per turn belong to the correspondence clock, and it needs them")
        if self.move_days is not None and self.move_days not in CORRESPONDENCE_DAYS:
            raise ValueError(f"days per turn must be one of {CORRESPONDENCE_DAYS}")

    @property
    def timed(self) -> bool:
        return self.kind != "turn" or bool(self.turn_seconds)

    @property
    def correspondence(self) -> bool:
        return self.kind == "correspondence"

    @property
    def free_seconds(self) -> int | None:
        """The part of a turn that costs no reserve (None when untimed)."""
        if self.kind == "nardeon":
            return NARDEON_FREE_SECONDS
        if self.kind == "omerta":
            return OMERTA_STEP_SECONDS
        if self.move_days is not None:
            return self.move_days * SECONDS_PER_DAY
        return self.turn_seconds or None

    @property
    def expiry_loses(self) -> bool:
        """Whether running out of time loses the match at once (NARDEON) rather than the server
        playing the turn and counting a timeout."""
        return self.kind == "nardeon"

    @property
    def restarts_on_step(self) -> bool:
        return self.kind == "omerta"

    @property
    def timeouts_in_a_row(self) -> bool:
        """Whether a turn the seat plays itself starts its count of timeouts again: the
        correspondence clock counts missed turns in a row, the live clocks count a match's."""
        return self.kind == "correspondence"


SECONDS_PER_DAY = 86_400


UNTIMED = TimeControl()


def elapsed_ms(started_at: datetime, now: datetime) -> int:
    """Whole milliseconds since ``started_at`` (never negative)."""
    return max(0, int((now - started_at).total_seconds() * 1000))


def initial_reserve_ms(control: TimeControl) -> int:
    """Each seat's reserve when the match starts."""
    if control.kind == "nardeon":
        return NARDEON_RESERVE_SECONDS * 1000
    if control.kind == "omerta":
        return 0
    return control.reserve_seconds * 1000


def overrun_ms(control: TimeControl, turn_started_at: datetime, now: datetime) -> int:
    """Time spent beyond the free part of the turn: what comes out of the reserve."""
    if control.kind == "omerta" or not control.timed:
        return 0
    free = control.free_seconds or 0
    return max(0, elapsed_ms(turn_started_at, now) - free * 1000)


def reserve_after(
    control: TimeControl, reserve_ms: int, turn_started_at: datetime, now: datetime
) -> int:
    """The mover's reserve after a turn (or a moment of it) that lasted until ``now``."""
    return max(0, reserve_ms - overrun_ms(control, turn_started_at, now))


def turn_deadline(
    control: TimeControl, reserve_ms: int, turn_started_at: datetime, clock_started_at: datetime
) -> datetime | None:
    """When the running turn runs out (None when untimed). ``clock_started_at`` is when the step
    timer last started (Omerta); the other clocks count from the turn's start."""
    if not control.timed:
        return None
    if control.kind == "omerta":
        return clock_started_at + timedelta(seconds=OMERTA_STEP_SECONDS)
    if control.kind == "nardeon":
        budget_ms = min(NARDEON_FREE_SECONDS * 1000 + reserve_ms, NARDEON_TURN_LIMIT_SECONDS * 1000)
        return turn_started_at + timedelta(milliseconds=budget_ms)
    return turn_started_at + timedelta(seconds=control.free_seconds or 0, milliseconds=reserve_ms)


@dataclass(frozen=True)
class ClockReading:
    """The clock as the players see it at one moment."""

    turn_ms_left: int | None  # the free part left (turn time, NARDEON's 12 s, Omerta's step timer)
    mover_reserve_ms: int  # the mover's reserve after the overrun so far
    deadline_ms_left: int | None  # until the turn runs out, every limit counted


def read_clock(
    control: TimeControl,
    reserve_ms: int,
    turn_started_at: datetime,
    clock_started_at: datetime,
    now: datetime,
) -> ClockReading:
    """The running turn's clock at ``now`` for a mover holding ``reserve_ms``."""
    deadline = turn_deadline(control, reserve_ms, turn_started_at, clock_started_at)
    if deadline is None:
        return ClockReading(None, reserve_ms, None)
    started = clock_started_at if control.restarts_on_step else turn_started_at
    free_ms = (control.free_seconds or 0) * 1000
    left = max(0, free_ms - elapsed_ms(started, now))
    until_deadline = max(0, int((deadline - now).total_seconds() * 1000))
    return ClockReading(
        left, reserve_after(control, reserve_ms, turn_started_at, now), until_deadline
    )
