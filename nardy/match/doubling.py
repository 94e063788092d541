"""The doubling cube's operations (nardy/cube.py has the rules): ``double`` before
rolling, and the opponent's ``take`` or ``drop``. Like every operation they return (new state,
events) and read no clock: an offer hands the turn clock to the answerer, an answer hands it back
(events.py), and a timeout on an offer is a drop (operations.timeout)."""

from __future__ import annotations

from datetime import datetime

from ..cube import raised_value
from .events import CubeOffered, CubeTaken, Event
from .operations import Run, drop_double, maybe_auto_roll, play_for_mover, require_mover
from .state import DiceSource, GameState, MatchRuleError, MatchState


def _no_dice(game: int, roll: int) -> tuple[int, int]:
    """The source of an operation that must draw no dice (a double; a take the doubler rolls
    after by hand)."""
    raise ValueError(f"the operation needs dice (game {game}, roll {roll}) and none were given")


def double(state: MatchState, *, seat: int, now: datetime) -> tuple[MatchState, list[Event]]:
    """The mover offers, before rolling, to raise the stake."""
    game = require_mover(state, seat)
    if not state.rules.doubling_cube:
        raise MatchRuleError("cube_not_allowed", "this match is played without the cube")
    if not state.may_double(seat):
        raise MatchRuleError(*_refusal(state, game, seat))
    run = Run(state, now, _no_dice, frozenset())
    value = raised_value(game.cube_value, state.rules)
    run.emit(CubeOffered(seat=game.mover_seat, side=game.turn, value=value, at=now))
    return run.result()


def _refusal(state: MatchState, game: GameState, seat: int) -> tuple[str, str]:
    """(code, reason) for a double the rules do not allow now."""
    if game.cube_offer is not None:
        return "cube_offered", "a double is already offered"
    if game.phase != "roll":
        return "already_rolled", "a double is offered before rolling"
    if game.number == state.crawford_game:
        return "crawford_game", "no doubling in the Crawford game"
    if game.cube_owner not in (None, seat):
        return "not_cube_owner", "the cube is your opponent's: only they may raise it"
    return "cube_at_maximum", "the cube cannot be raised further"


def _answerer(state: MatchState, seat: int) -> GameState:
    if state.status != "active" or state.game is None or state.game.phase == "over":
        raise MatchRuleError("match_not_active", "no game is being played")
    game = state.game
    if game.cube_offer is None:
        raise MatchRuleError("no_cube_offer", "no double is offered")
    if seat != 1 - game.cube_offer:
        raise MatchRuleError("not_your_turn", "the double is your opponent's to answer")
    return game


def take(
    state: MatchState, *, seat: int, now: datetime, auto_roll: frozenset[int] = frozenset(),
    dice: DiceSource | None = None, forced: frozenset[int] = frozenset(),
) -> tuple[MatchState, list[Event]]:  # fmt: skip
    """The opponent takes: the cube is raised and theirs; the doubler rolls next (the server
    rolls and plays at once for a timed-out doubler whose double was the auto-move)."""
    game = _answerer(state, seat)
    run = Run(state, now, dice if dice is not None else _no_dice, auto_roll, forced)
    value = raised_value(game.cube_value, state.rules)
    run.emit(CubeTaken(seat=seat, side=game.side_of_seat(seat), value=value, at=now))  # type: ignore[arg-type]
    if game.cube_offer_by_server:
        play_for_mover(run)
    else:
        maybe_auto_roll(run)
    return run.result()


def drop(
    state: MatchState, *, seat: int, now: datetime, dice: DiceSource,
    auto_roll: frozenset[int] = frozenset(), forced: frozenset[int] = frozenset(),
) -> tuple[MatchState, list[Event]]:  # fmt: skip
    """The opponent drops: the game is lost at the stake before the offer (``dice`` serve the
    next game's opening roll)."""
    _answerer(state, seat)
    run = Run(state, now, dice, auto_roll, forced)
    drop_double(run, by_server=False)
    return run.result()
