"""Match events and ``apply_event``, the one function that changes a ``MatchState``.

Each event holds what it needs to be replayed: the dice rolled, the step played, the moment a
turn ended. Their wire form is games/protocol's business.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from ..board import Board, Side, opponent_of
from ..clock import initial_reserve_ms, reserve_after, turn_deadline
from ..scoring import add_game, game_result
from ..scoring import resign as forfeit
from ..sequences import Step, StepSequence, apply_step
from ..turn import undo_step
from .seat_events import (
    SEAT_APPLIERS,
    ClientSeedSet,
    RematchAccepted,
    RematchDeclined,
    RematchOffered,
    Seated,
)
from .state import EndReason, GameState, MatchState, OpeningRoll, Seat, Status, with_seat

# --- Events: what happened, with what it needs to be replayed ------------------------------------


@dataclass(frozen=True)
class Started:
    """A game began (game 1 also starts the match: the seats are filled)."""

    game: int
    white_seat: Seat
    at: datetime
    opening: OpeningRoll | None = None
    crawford: bool = False  # the match's Crawford game: no doubling in it


@dataclass(frozen=True)
class Rolled:
    side: Side
    dice: tuple[int, int]
    roll: int  # its roll number in the game (the opening's, when the starter plays that roll)


@dataclass(frozen=True)
class Stepped:
    side: Side
    step: Step
    at: datetime | None = None  # restarts an Omerta step timer (None: an old event, no restart)


@dataclass(frozen=True)
class Undone:
    side: Side
    step: Step  # the step taken back


@dataclass(frozen=True)
class TurnEnded:
    """A turn is over: the move-log entry (an empty ``steps`` is a pass)."""

    number: int
    side: Side
    seat: Seat
    dice: tuple[int, int]
    roll: int | None  # the roll number of ``dice``
    steps: StepSequence
    board_after: Board
    by_server: bool
    started_at: datetime
    finished_at: datetime
    doubled_to: int = 0  # a double offered in this turn and taken raised the cube to this

    @property
    def passed(self) -> bool:
        return not self.steps


@dataclass(frozen=True)
class CubeOffered:
    """The mover offers, before rolling, to raise the stake to ``value``."""

    seat: Seat
    side: Side
    value: int
    at: datetime
    by_server: bool = False  # the auto-move of a timed-out mover clearly ahead


@dataclass(frozen=True)
class CubeTaken:
    """The opponent takes: the cube is ``value`` now and theirs to raise next."""

    seat: Seat
    side: Side
    value: int
    at: datetime


@dataclass(frozen=True)
class CubeDropped:
    """The opponent drops (or ran out of time answering): the game is lost at ``value``, the
    stake before the offer; a ``GameOver`` follows."""

    seat: Seat
    side: Side
    value: int
    by_server: bool
    at: datetime


@dataclass(frozen=True)
class TimedOut:
    seat: Seat
    side: Side
    timeouts: int  # the seat's count now


@dataclass(frozen=True)
class GameOver:
    game: int
    winner: Side
    result: str  # "oin" or "mars"; "cube" or "drop" with the doubling cube
    points: int
    at: datetime


@dataclass(frozen=True)
class MatchOver:
    winner_seat: Seat | None  # None when aborted
    reason: EndReason
    at: datetime
    aborted_by: Seat | None = None  # the seat that aborted before the start (abort_before_start)


@dataclass(frozen=True)
class Cancelled:
    at: datetime


Event = (
    Started
    | Rolled
    | Stepped
    | Undone
    | TurnEnded
    | TimedOut
    | GameOver
    | MatchOver
    | Cancelled
    | CubeOffered
    | CubeTaken
    | CubeDropped
    | Seated
    | ClientSeedSet
    | RematchOffered
    | RematchDeclined
    | RematchAccepted
)


# --- The one function that changes a state -------------------------------------------------------


def _replace_game(state: MatchState, **changes: object) -> MatchState:
    assert state.game is not None
    return dataclasses.replace(state, game=dataclasses.replace(state.game, **changes))


def _with_deadline(state: MatchState, game: GameState) -> MatchState:
    """The state with ``game``, its deadline set by the match's clock (nardy/clock.py)
    for the seat whose clock runs (the answerer's while a double is offered)."""
    started = game.clock_started_at or game.turn_started_at
    deadline = turn_deadline(
        state.clock, state.reserve_ms[game.clock_seat], game.turn_started_at, started
    )
    return dataclasses.replace(state, game=dataclasses.replace(game, turn_deadline=deadline))


def _apply_started(state: MatchState, event: Started) -> MatchState:
    if event.game == 1:
        reserve = initial_reserve_ms(state.clock)
        state = dataclasses.replace(
            state, status="active", started_at=event.at, reserve_ms=(reserve, reserve)
        )
    if event.crawford:
        state = dataclasses.replace(state, crawford_game=event.game)
    rolls = len(event.opening.ties) + 1 if event.opening is not None else 0
    game = GameState(
        number=event.game, white_seat=event.white_seat, opening=event.opening,
        turn_started_at=event.at, clock_started_at=event.at, rolls=rolls,
    )  # fmt: skip
    return _with_deadline(state, game)


def _apply_rolled(state: MatchState, event: Rolled) -> MatchState:
    assert state.game is not None
    rolls = max(state.game.rolls, event.roll)
    return _replace_game(
        state, dice=event.dice, roll=event.roll, rolls=rolls, phase="move", steps=()
    )


def _apply_stepped(state: MatchState, event: Stepped) -> MatchState:
    game = state.game
    assert game is not None
    steps = game.steps + (event.step,)
    game = dataclasses.replace(
        game, board=apply_step(game.board, event.side, event.step), steps=steps
    )
    if state.clock.restarts_on_step and event.at is not None and len(steps) > game.steps_timed:
        # Omerta: the timer starts again after each step further into the turn (clock.py).
        game = dataclasses.replace(game, clock_started_at=event.at, steps_timed=len(steps))
        return _with_deadline(state, game)
    return dataclasses.replace(state, game=game)


def _apply_undone(state: MatchState, event: Undone) -> MatchState:
    turn = state.turn_state()
    assert turn is not None
    before = undo_step(turn)
    return _replace_game(state, board=before.board, steps=before.steps)


def _apply_turn_ended(state: MatchState, event: TurnEnded) -> MatchState:
    game = state.game
    assert game is not None
    # Time beyond the turn allowance comes out of the mover's reserve bank.
    spent = reserve_after(
        state.clock, state.reserve_ms[event.seat], event.started_at, event.finished_at
    )
    state = dataclasses.replace(state, reserve_ms=with_seat(state.reserve_ms, event.seat, spent))
    if state.clock.timeouts_in_a_row and not event.by_server:
        # A correspondence turn played by its player: its missed turns in a row start again
        # (docs/rules.md, Platform rules, Correspondence).
        state = dataclasses.replace(state, timeouts=with_seat(state.timeouts, event.seat, 0))
    moved = {"white_has_moved": True} if event.side == "w" else {"black_has_moved": True}
    if game_result(game.board) is not None:
        return _replace_game(state, phase="over", **moved)
    game = dataclasses.replace(
        game, **moved, turn=opponent_of(event.side), turn_number=game.turn_number + 1, dice=None,
        roll=None, steps=(), phase="roll", turn_board=game.board, turn_started_at=event.finished_at,
        turn_doubled_to=0, clock_started_at=event.finished_at, steps_timed=0,
    )  # fmt: skip
    return _with_deadline(state, game)


def _spend_clock(state: MatchState, at: datetime) -> MatchState:
    """Charge the running clock's overrun to its seat's reserve; the clock starts anew at ``at``
    (a cube offer hands the clock to the answerer, an answer hands it back)."""
    game = state.game
    assert game is not None
    seat = game.clock_seat
    spent = reserve_after(state.clock, state.reserve_ms[seat], game.turn_started_at, at)
    return dataclasses.replace(state, reserve_ms=with_seat(state.reserve_ms, seat, spent))


def _restart_clock(state: MatchState, at: datetime, **changes: object) -> MatchState:
    """The clock starts anew at ``at`` for the seat it now runs for (every time control: the
    turn clock's turn time, NARDEON's free seconds and 60 s cap, Omerta's step timer)."""
    assert state.game is not None
    game = dataclasses.replace(
        state.game, **changes, turn_started_at=at, clock_started_at=at, steps_timed=0
    )
    return _with_deadline(state, game)


def _apply_cube_offered(state: MatchState, event: CubeOffered) -> MatchState:
    return _restart_clock(
        _spend_clock(state, event.at), event.at, cube_offer=event.seat,
        cube_offer_by_server=event.by_server,
    )  # fmt: skip


def _apply_cube_taken(state: MatchState, event: CubeTaken) -> MatchState:
    return _restart_clock(
        _spend_clock(state, event.at), event.at, cube_offer=None, cube_offer_by_server=False,
        cube_value=event.value, cube_owner=event.seat, turn_doubled_to=event.value,
    )  # fmt: skip


def _apply_cube_dropped(state: MatchState, event: CubeDropped) -> MatchState:
    return _replace_game(_spend_clock(state, event.at), cube_offer=None, cube_offer_by_server=False)


def _apply_timed_out(state: MatchState, event: TimedOut) -> MatchState:
    return dataclasses.replace(
        state, timeouts=with_seat(state.timeouts, event.seat, event.timeouts)
    )


def _apply_game_over(state: MatchState, event: GameOver) -> MatchState:
    game = state.game
    assert game is not None
    score = add_game(state.score, game.seat_of_side(event.winner), event.points)
    state = dataclasses.replace(state, score=score)
    return _replace_game(
        state, result=event.result, winner_side=event.winner, points=event.points,
        finished_at=event.at, turn_deadline=None, phase="over",
    )  # fmt: skip


def _apply_match_over(state: MatchState, event: MatchOver) -> MatchState:
    score = state.score
    if event.winner_seat is not None and not score.is_over:
        # Resigning, leaving, the third timeout, a NARDEON clock run out and an abandoned table
        # lose the whole match (docs/rules.md, Platform rules).
        score = forfeit(score, 1 - event.winner_seat)  # type: ignore[arg-type]
    status: Status = "aborted" if event.reason == "aborted" else "finished"
    state = dataclasses.replace(
        state, status=status, score=score, end_reason=event.reason, finished_at=event.at,
        aborted_by=event.aborted_by,
    )  # fmt: skip
    game = state.game
    if game is None:
        return state
    if game.phase != "over":
        return _replace_game(state, phase="over", finished_at=event.at, turn_deadline=None)
    return _replace_game(state, turn_deadline=None)


def _apply_cancelled(state: MatchState, event: Cancelled) -> MatchState:
    return dataclasses.replace(state, status="cancelled", finished_at=event.at)


_APPLY: dict[type, Callable[[MatchState, object], MatchState]] = {
    Started: _apply_started,  # type: ignore[dict-item]
    Rolled: _apply_rolled,  # type: ignore[dict-item]
    Stepped: _apply_stepped,  # type: ignore[dict-item]
    Undone: _apply_undone,  # type: ignore[dict-item]
    TurnEnded: _apply_turn_ended,  # type: ignore[dict-item]
    TimedOut: _apply_timed_out,  # type: ignore[dict-item]
    GameOver: _apply_game_over,  # type: ignore[dict-item]
    MatchOver: _apply_match_over,  # type: ignore[dict-item]
    Cancelled: _apply_cancelled,  # type: ignore[dict-item]
    CubeOffered: _apply_cube_offered,  # type: ignore[dict-item]
    CubeTaken: _apply_cube_taken,  # type: ignore[dict-item]
    CubeDropped: _apply_cube_dropped,  # type: ignore[dict-item]
    **SEAT_APPLIERS,  # type: ignore[dict-item]
}


def apply_event(state: MatchState, event: Event) -> MatchState:
    """The state after ``event``: the only place a match state changes."""
    return _APPLY[type(event)](state, event)


def replay(state: MatchState, events: Iterable[Event]) -> MatchState:
    for event in events:
        state = apply_event(state, event)
    return state
