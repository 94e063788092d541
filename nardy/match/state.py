"""The match state: frozen values (docs/rules.md, "Who starts, colours, games and matches")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, TypeVar

from ..board import START_BOARD, Board, Side
from ..clock import TimeControl
from ..cube import may_double
from ..ruleset import RuleSet
from ..scoring import MatchScore
from ..sequences import IllegalMove, StepSequence
from ..turn import TurnState

Seat = Literal[0, 1]
Phase = Literal["roll", "move", "over"]
Status = Literal["open", "active", "finished", "cancelled", "aborted"]
# `time`: a NARDEON clock ran out; `abandoned`: the opponent claimed the match after a player
# stayed away past the reconnect window; `banned`: a moderator banned the loser.
EndReason = Literal[
    "finished", "resigned", "left", "timeouts", "aborted", "time", "abandoned", "banned"
]
# The dice: (game number, roll number) -> the roll's two dice. Rolls count from 1 in each game,
# the opening roll's ties included; the server's source is games/fairness (provably fair dice).
DiceSource = Callable[[int, int], tuple[int, int]]

T = TypeVar("T")

# The third timeout in a match loses it (docs/rules.md, Platform rules).
TIMEOUTS_TO_LOSE = 3
# A chain of automatic rolls (players who roll automatically, with no legal step on either side)
# stops after this many rolls in one operation and waits for a player, so a command stays short.
MAX_AUTOMATIC_ROLLS = 8


def with_seat(values: tuple[T, T], seat: int, value: T) -> tuple[T, T]:
    """A pair of per-seat values (seat 0 first) with ``seat``'s replaced."""
    return (value, values[1]) if seat == 0 else (values[0], value)


class MatchRuleError(IllegalMove):
    """An operation the match does not allow now; ``code`` is the protocol's error code
    (docs/protocol.md), the message says why in English (the site translates by code)."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params  # the numbers the message names, for the site's translation


@dataclass(frozen=True)
class OpeningRoll:
    """Game 1's one-die roll: each seat rolls one die, ties are rolled again (all shown)."""

    white: int
    black: int
    ties: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class GameState:
    """One game of the match, with its turn in progress."""

    number: int
    white_seat: Seat
    turn_started_at: datetime
    opening: OpeningRoll | None = None
    board: Board = START_BOARD
    turn_board: Board = START_BOARD  # the board when this turn started
    turn: Side = "w"
    phase: Phase = "roll"
    dice: tuple[int, int] | None = None
    roll: int | None = None  # the roll number of ``dice`` (games/fairness)
    rolls: int = 0  # rolls drawn in this game so far, opening ties included
    steps: StepSequence = ()
    turn_number: int = 1
    white_has_moved: bool = False
    black_has_moved: bool = False
    turn_deadline: datetime | None = None
    # When the running timer started: the turn's start, or (Omerta) the step that restarted it,
    # and how many steps into the turn that was (only a step beyond it restarts the timer).
    clock_started_at: datetime | None = None
    steps_timed: int = 0
    result: str = ""  # "oin" or "mars" once over
    winner_side: Side | Literal[""] = ""
    points: int = 0
    finished_at: datetime | None = None
    # The doubling cube (nardy/cube.py): the stake, who may raise it next (None: either),
    # the seat whose offer awaits an answer, and the value a double taken in this turn raised
    # it to (0: none; the move log shows it with the turn).
    cube_value: int = 1
    cube_owner: Seat | None = None
    cube_offer: Seat | None = None
    cube_offer_by_server: bool = False  # the offer is a timed-out mover's auto-move
    turn_doubled_to: int = 0

    def seat_of_side(self, side: Side) -> Seat:
        return self.white_seat if side == "w" else 1 - self.white_seat  # type: ignore[return-value]

    def side_of_seat(self, seat: int) -> Side:
        return "w" if seat == self.white_seat else "b"

    @property
    def mover_seat(self) -> Seat:
        return self.seat_of_side(self.turn)

    def has_moved(self, side: Side) -> bool:
        return self.white_has_moved if side == "w" else self.black_has_moved

    @property
    def clock_seat(self) -> Seat:
        """Whose clock runs: the mover's, or the answerer's while a double is offered."""
        if self.cube_offer is not None:
            return 1 - self.cube_offer  # type: ignore[return-value]
        return self.mover_seat


@dataclass(frozen=True)
class Challenge:
    """Who may take seat 1 of an open challenge (docs/protocol.md, accepting a challenge): plain
    data the site copies from its rows."""

    rated: bool = False
    invited: int | None = None  # a direct challenge: only this player (a user id) may accept
    invite_token: str | None = None  # an invite link's token; None: no link is needed
    expires_at: datetime | None = None
    min_rating: int | None = None  # the rating range asked for (either end optional)
    max_rating: int | None = None


@dataclass(frozen=True)
class Candidate:
    """A player asking for seat 1, as the site knows them (the bans, blocks and other matches
    that need the database are checked by the site before)."""

    user: int
    rating: int
    client_seed: str  # opaque here: games/fairness checks its form
    may_play_rated: bool = True  # guests play casual games only
    active: bool = True
    token: str | None = None  # the invite link's token the player came with


@dataclass(frozen=True)
class Rematch:
    """The rematch of a finished match (docs/protocol.md `rematch`): the standing offer with the
    offerer's client seed and the server seed drawn with it, or the rematch once accepted."""

    offered_by: Seat | None = None
    declined: bool = False
    client_seed: str = ""
    server_seed: str = ""  # secret until the rematch ends: only its hash is shown
    match_id: int | None = None


@dataclass(frozen=True)
class RematchTerms:
    """What accepting a rematch decides: the new match's seat 0 (the accepting player) and the
    seeds of its dice."""

    creator_seat: Seat
    client_seeds: tuple[str, str]
    server_seed: str


@dataclass(frozen=True)
class MatchState:
    """Everything the rules need to know about a match between two seats (0 creator,
    1 opponent)."""

    rules: RuleSet
    turn_seconds: int | None = None
    reserve_seconds: int = 0
    time_control: str = "turn"  # ruleset.TIME_CONTROLS, nardy/clock.py
    move_days: int | None = None  # the correspondence clock's days per turn
    status: Status = "open"
    score: MatchScore = field(default=None)  # type: ignore[assignment]  # set from the rules
    timeouts: tuple[int, int] = (0, 0)
    reserve_ms: tuple[int, int] = (0, 0)
    end_reason: EndReason | Literal[""] = ""
    started_at: datetime | None = None
    finished_at: datetime | None = None
    game: GameState | None = None
    crawford_game: int = 0  # the number of the match's Crawford game once it has started
    aborted_by: Seat | None = None  # who aborted before the start, if anyone
    # The seats' players (user ids, opaque here) and their client seeds (games/fairness).
    players: tuple[int | None, int | None] = (None, None)
    client_seeds: tuple[str, str] = ("", "")
    challenge: Challenge = Challenge()
    rematch: Rematch = Rematch()

    def may_double(self, seat: int) -> bool:
        """Whether ``seat`` may offer a double now: before rolling in its own turn, with the
        cube in the middle or its own, outside the Crawford game (nardy/cube.py)."""
        game = self.game
        return (
            self.status == "active"
            and game is not None
            and may_double(
                self.rules, seat, mover_seat=game.mover_seat, phase=game.phase,
                offer=game.cube_offer, owner=game.cube_owner, value=game.cube_value,
                crawford=game.number == self.crawford_game,
            )
        )  # fmt: skip

    def __post_init__(self) -> None:
        if self.score is None:
            object.__setattr__(self, "score", MatchScore(self.rules.match_length))

    @property
    def clock(self) -> TimeControl:
        return TimeControl(
            self.time_control, self.turn_seconds, self.reserve_seconds, self.move_days
        )

    @property
    def winner_seat(self) -> Seat | None:
        return self.score.winner if self.status == "finished" else None

    def turn_state(self) -> TurnState | None:
        """The engine's view of the turn in progress (None until the dice are rolled)."""
        game = self.game
        if game is None or game.phase != "move" or game.dice is None:
            return None
        return TurnState(
            start_board=game.turn_board,
            side=game.turn,
            dice=game.dice,
            first_turn=not game.has_moved(game.turn),
            rules=self.rules,
            steps=game.steps,
            board=game.board,
        )

    @property
    def abortable(self) -> bool:
        """Either player may abort, without a result, until each has made a first move of the
        first game (docs/rules.md, Platform rules, Abort; lichess allows it until both sides have
        moved)."""
        game = self.game
        return (
            self.status == "active"
            and game is not None
            and game.number == 1
            and not (game.white_has_moved and game.black_has_moved)
        )

    def open_turn(self) -> tuple[int, int] | None:
        """(game number, turn number) of the turn being played, None when none is."""
        game = self.game
        if self.status != "active" or game is None or game.phase == "over":
            return None
        return (game.number, game.turn_number)
