"""The match operations: each decides which events happen and returns (new state, events).

Dice come in as a function of (game, roll number) and "now" as a value; nothing here rolls or
reads a clock. The endings outside the board (resign, ban, claim, abort, cancel) are endings.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..board import Side, opponent_of
from ..cube import CUBE_RESULT, DROP_RESULT, raised_value, starts_crawford_game
from ..cube_advice import should_double
from ..scoring import (
    OIN_POINTS,
    first_turn_dice,
    game_result,
    next_game_starter,
    opening_winner,
)
from ..sequences import Step, legal_turns
from ..turn import choose_rest_of_turn, is_turn_complete, legal_next_steps, play_step
from .events import (
    CubeDropped,
    CubeOffered,
    Event,
    GameOver,
    MatchOver,
    Rolled,
    Started,
    Stepped,
    TimedOut,
    TurnEnded,
    Undone,
    apply_event,
)
from .state import (
    MAX_AUTOMATIC_ROLLS,
    TIMEOUTS_TO_LOSE,
    DiceSource,
    GameState,
    MatchRuleError,
    MatchState,
    OpeningRoll,
    Phase,
    Seat,
    Status,
)

# --- Operations: decide the events ---------------------------------------------------------------


@dataclass
class Run:
    """One operation in progress: the state so far and the events decided."""

    state: MatchState
    now: datetime
    dice: DiceSource
    auto_roll: frozenset[int]
    forced: frozenset[int] = frozenset()  # seats whose forced turns the server plays at once
    # Seats that confirm their turns ("confirm my turn"): after the last step the turn waits for
    # `confirm` or an undo (docs/protocol.md, "confirm"); a step the server plays never waits.
    confirm: frozenset[int] = frozenset()
    events: list[Event] = field(default_factory=list)
    rolls: int = 0

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = apply_event(self.state, event)

    @property
    def game(self) -> GameState:
        assert self.state.game is not None
        return self.state.game

    def result(self) -> tuple[MatchState, list[Event]]:
        return self.state, self.events


def _draw(run: Run, game: int, roll: int) -> tuple[int, int]:
    first, second = run.dice(game, roll)
    for die in (first, second):
        if type(die) is not int or not 1 <= die <= 6:
            raise ValueError(f"a die is 1..6, got {die!r}")
    return first, second


def _draw_next(run: Run) -> tuple[tuple[int, int], int]:
    """The next roll of the game being played, with its roll number."""
    roll = run.game.rolls + 1
    return _draw(run, run.game.number, roll), roll


def _start_game(run: Run, number: int, starter: Seat | None) -> None:
    """Game 1 opens with the one-die roll (ties rolled again); later games are started by the
    previous winner, who plays White (docs/rules.md, "Who starts, colours, games and matches"), or
    by a new opening roll (``game_starter = "opening_roll"``, Omerta). The Crawford game is marked
    as it starts."""
    state = run.state
    crawford = number > 1 and starts_crawford_game(
        state.rules, state.score.points, state.crawford_game
    )
    if starter is not None:
        run.emit(Started(game=number, white_seat=starter, at=run.now, crawford=crawford))
        maybe_auto_roll(run)
        return
    ties: list[tuple[int, int]] = []
    while True:
        pair = _draw(run, number, len(ties) + 1)
        winner = opening_winner(*pair)
        if winner is not None:
            break
        ties.append(pair)
    high, low = max(pair), min(pair)
    run.emit(
        Started(game=number, white_seat=winner, at=run.now, crawford=crawford,
                opening=OpeningRoll(white=high, black=low, ties=tuple(ties)))
    )  # fmt: skip
    first_dice = first_turn_dice(run.state.rules, (high, low))
    if first_dice is not None:
        _set_dice(run, first_dice, len(ties) + 1, by_server=False)
    else:
        maybe_auto_roll(run)


def _set_dice(run: Run, dice: tuple[int, int], roll: int, *, by_server: bool) -> None:
    run.rolls += 1
    run.emit(Rolled(side=run.game.turn, dice=dice, roll=roll))
    turn = run.state.turn_state()
    assert turn is not None
    if not legal_next_steps(turn):  # the roll is shown, the turn passes (docs/rules.md, A turn, 3)
        _end_turn(run, by_server=by_server)
    elif run.game.mover_seat in run.forced:
        _play_forced_turn(run)


def forced_turn(state: MatchState) -> tuple[Step, ...] | None:
    """The steps of the turn being played when the roll leaves exactly one legal turn (one end
    position, however its steps may be ordered) and nothing is played yet; None otherwise."""
    turn = state.turn_state()
    if turn is None or turn.steps:
        return None
    sequences = legal_turns(turn.start_board, turn.side, turn.dice, turn.first_turn, turn.rules)
    if len(sequences) != 1:
        return None
    (only,) = sequences.values()
    return min(only)


def _play_forced_turn(run: Run) -> None:
    """ "Play forced turns for me" (a player's setting): the only legal turn is played at once, as
    the player's own steps (by_server stays false: the player chose it, no time ran out)."""
    steps = forced_turn(run.state)
    if steps:
        for chosen in steps:
            _play_step(run, chosen, by_server=False, confirmable=False)


def maybe_auto_roll(run: Run) -> None:
    """Roll at once for a mover who chose to roll automatically (a bounded chain), unless the
    mover may double: that choice is made before rolling, by the player."""
    game = run.game
    if run.rolls >= MAX_AUTOMATIC_ROLLS or game.phase != "roll" or run.state.status != "active":
        return
    if run.state.may_double(game.mover_seat):
        return
    if game.mover_seat in run.auto_roll:
        _set_dice(run, *_draw_next(run), by_server=False)


def _play_step(run: Run, step: Step, *, by_server: bool, confirmable: bool = True) -> None:
    turn = run.state.turn_state()
    assert turn is not None
    seat = run.game.mover_seat
    after = play_step(turn, step)  # IllegalMove says why a step is refused
    run.emit(Stepped(side=turn.side, step=step, at=run.now))
    if is_turn_complete(after):
        if confirmable and not by_server and seat in run.confirm:
            return  # the mover confirms (or undoes) first; the turn clock keeps running
        _end_turn(run, by_server=by_server)


def awaiting_confirm(state: MatchState) -> bool:
    """Whether the mover has played a whole turn that waits for `confirm` (or an undo)."""
    game = state.game
    if state.status != "active" or game is None or game.phase != "move" or not game.steps:
        return False
    turn = state.turn_state()
    return turn is not None and is_turn_complete(turn)


def _end_turn(run: Run, *, by_server: bool) -> None:
    """Log the turn, then end the game (and perhaps the match) or hand the dice over."""
    game = run.game
    assert game.dice is not None
    run.emit(
        TurnEnded(
            number=game.turn_number, side=game.turn, seat=game.mover_seat, dice=game.dice,
            roll=game.roll, steps=game.steps, board_after=game.board, by_server=by_server,
            started_at=game.turn_started_at, finished_at=run.now,
            doubled_to=game.turn_doubled_to,
        )
    )  # fmt: skip
    finished = game_result(game.board)
    if finished is None:
        maybe_auto_roll(run)
        return
    winner_side, points = finished
    result = "oin" if points == OIN_POINTS else "mars"
    if run.state.rules.doubling_cube:
        # "With dave there is no mars and no oin" (the Ukrainian rules page, docs/rules.md): the
        # game is worth the cube.
        result, points = CUBE_RESULT, game.cube_value
    finish_game(run, winner_side, result, points)


def finish_game(run: Run, winner_side: Side, result: str, points: int) -> None:
    """Score the game, then end the match or start the next game."""
    game = run.game
    run.emit(
        GameOver(game=game.number, winner=winner_side, result=result, points=points, at=run.now)
    )
    winner_seat = game.seat_of_side(winner_side)
    if run.state.score.is_over:
        run.emit(MatchOver(winner_seat=winner_seat, reason="finished", at=run.now))
    else:
        _start_game(run, game.number + 1, next_game_starter(winner_seat, run.state.rules))


def drop_double(run: Run, *, by_server: bool) -> None:
    """The answerer declines the offered double: the game is lost at the stake before it."""
    game = run.game
    assert game.cube_offer is not None
    seat = 1 - game.cube_offer
    side = game.side_of_seat(seat)
    run.emit(CubeDropped(seat=seat, side=side, value=game.cube_value, by_server=by_server,  # type: ignore[arg-type]
                         at=run.now))  # fmt: skip
    finish_game(run, opponent_of(side), DROP_RESULT, game.cube_value)


def require_status(state: MatchState, status: Status, code: str, message: str) -> None:
    if state.status != status:
        raise MatchRuleError(code, message)


def require_mover(state: MatchState, seat: int) -> GameState:
    """The game being played, when ``seat`` is to move in it; MatchRuleError otherwise."""
    require_status(state, "active", "match_not_active", "this match is not being played")
    game = state.game
    if game is None or game.phase == "over":
        raise MatchRuleError("match_not_active", "no game is being played")
    if game.mover_seat != seat:
        raise MatchRuleError("not_your_turn", "it is not your turn")
    return game


def _require_turn(state: MatchState, seat: int, phase: Phase) -> GameState:
    game = require_mover(state, seat)
    if game.cube_offer is not None:
        raise MatchRuleError("cube_offered", "your double awaits an answer")
    if game.phase != phase:
        if phase == "roll":
            raise MatchRuleError("already_rolled", "the dice are already rolled")
        raise MatchRuleError("not_rolled", "roll the dice first")
    return game


def begin(
    state: MatchState, *, dice: DiceSource, now: datetime, auto_roll: frozenset[int] = frozenset(),
    forced: frozenset[int] = frozenset(),
) -> tuple[MatchState, list[Event]]:  # fmt: skip
    """Both seats are filled: game 1 starts with the opening roll."""
    require_status(state, "open", "match_not_active", "this challenge is no longer open")
    run = Run(state, now, dice, auto_roll, forced)
    _start_game(run, 1, None)
    return run.result()


def roll(
    state: MatchState, *, seat: int, dice: DiceSource, now: datetime,
    auto_roll: frozenset[int] = frozenset(), forced: frozenset[int] = frozenset(),
) -> tuple[MatchState, list[Event]]:  # fmt: skip
    """The mover rolls; a roll with no legal step is shown and the turn passes by itself, and a
    roll with one legal turn is played at once for a seat in ``forced``."""
    _require_turn(state, seat, "roll")
    run = Run(state, now, dice, auto_roll, forced)
    _set_dice(run, *_draw_next(run), by_server=False)
    return run.result()


def step(
    state: MatchState, *, seat: int, step: Step, dice: DiceSource, now: datetime,
    auto_roll: frozenset[int] = frozenset(), forced: frozenset[int] = frozenset(),
    confirm: frozenset[int] = frozenset(),
) -> tuple[MatchState, list[Event]]:  # fmt: skip
    """One step of the mover's turn; after the last possible one the turn passes by itself,
    or, for a seat in ``confirm``, waits for `confirm` (``dice`` serves the next mover's automatic
    roll)."""
    _require_turn(state, seat, "move")
    run = Run(state, now, dice, auto_roll, forced, confirm)
    _play_step(run, step, by_server=False)
    return run.result()


def confirm(
    state: MatchState, *, seat: int, dice: DiceSource, now: datetime,
    auto_roll: frozenset[int] = frozenset(), forced: frozenset[int] = frozenset(),
) -> tuple[MatchState, list[Event]]:  # fmt: skip
    """The mover confirms the whole turn played ("confirm my turn"): it ends as a last step
    would have ended it."""
    _require_turn(state, seat, "move")
    if not awaiting_confirm(state):
        raise MatchRuleError("turn_not_complete", "the turn is not complete: play every step first")
    run = Run(state, now, dice, auto_roll, forced)
    _end_turn(run, by_server=False)
    return run.result()


def undo(state: MatchState, *, seat: int) -> tuple[MatchState, list[Event]]:
    """Take back the last step of the turn (rule sets with undo only, docs/rules.md, Platform
    rules)."""
    game = _require_turn(state, seat, "move")
    if not state.rules.undo_allowed:
        raise MatchRuleError("undo_not_allowed", "in this rule set every step is final")
    if not game.steps:
        raise MatchRuleError("nothing_to_undo", "there is no step to take back")
    event = Undone(side=game.turn, step=game.steps[-1])
    return apply_event(state, event), [event]


def timeout(
    state: MatchState, *, dice: DiceSource, now: datetime, auto_roll: frozenset[int] = frozenset(),
    forced: frozenset[int] = frozenset(),
) -> tuple[MatchState, list[Event]]:  # fmt: skip
    """The running clock ran out (``now`` is at or past the deadline): the mover's, or the
    answerer's while a double is offered. On a NARDEON clock that seat loses the match (reason
    ``time``). Otherwise a timeout is counted and the server rolls if needed and plays the rest of
    the turn with the engine's chooser; the third timeout loses the match (docs/rules.md, Platform
    rules; nardy/clock.py). With the cube: a double left unanswered is dropped, and before
    rolling the server doubles for a mover clearly ahead."""
    game = state.game
    if state.open_turn() is None or game is None or game.turn_deadline is None:
        raise MatchRuleError("match_not_active", "no timed turn is being played")
    if now < game.turn_deadline:
        raise MatchRuleError("not_timed_out", "the turn has time left")
    run = Run(state, now, dice, auto_roll, forced)
    seat = game.clock_seat
    if awaiting_confirm(state):
        # The whole turn is played and only the confirmation is missing: time running out
        # confirms it (docs/protocol.md, "confirm"); no timeout is counted, nothing is lost.
        _end_turn(run, by_server=False)
        return run.result()
    if state.clock.expiry_loses:
        run.emit(MatchOver(winner_seat=1 - seat, reason="time", at=now))  # type: ignore[arg-type]
        return run.result()
    timeouts = state.timeouts[seat] + 1
    run.emit(TimedOut(seat=seat, side=game.side_of_seat(seat), timeouts=timeouts))
    if timeouts >= TIMEOUTS_TO_LOSE:
        run.emit(MatchOver(winner_seat=1 - seat, reason="timeouts", at=now))  # type: ignore[arg-type]
        return run.result()
    if game.cube_offer is not None:
        drop_double(run, by_server=True)  # an unanswered double counts as dropped
    elif game.phase == "roll" and _server_doubles(state, game):
        # The auto-move doubles when clearly ahead (nardy/cube_advice.py); if the opponent
        # takes, the server goes on to roll and play this turn (doubling.take).
        value = raised_value(game.cube_value, state.rules)
        run.emit(CubeOffered(seat=seat, side=game.turn, value=value, at=now, by_server=True))
    else:
        play_for_mover(run)
    return run.result()


def _server_doubles(state: MatchState, game: GameState) -> bool:
    """Whether the auto-move doubles for the timed-out mover (nardy/cube_advice.py)."""
    if not state.may_double(game.mover_seat):
        return False
    needed = state.rules.match_length - state.score.points[game.mover_seat]
    return should_double(game.board, game.turn, points_needed=needed, stake=game.cube_value)


def play_for_mover(run: Run) -> None:
    """The server rolls if needed and plays the rest of the mover's turn with the chooser."""
    turn = run.state.open_turn()
    if run.game.phase == "roll":
        _set_dice(run, *_draw_next(run), by_server=True)
    if run.state.open_turn() == turn:  # not passed by the roll itself
        current = run.state.turn_state()
        assert current is not None
        for chosen in choose_rest_of_turn(current):
            _play_step(run, chosen, by_server=True)
