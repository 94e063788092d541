"""Where the clocks and forced turns meet the doubling cube: an offer hands the clock
to the answerer on every time control, and a forced turn is never played before a player who may
double has decided (docs/protocol.md "Time controls")."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from nardy import board_from_points, rule_set
from nardy import match as engine
from nardy.match import CubeTaken, GameOver, MatchOver, MatchState, Rolled, TurnEnded

from .test_match import T0, pairs


def seconds(value: float) -> timedelta:
    return timedelta(seconds=value)


def _cube_match(control: str) -> MatchState:
    """A 5-point cube match on a seed clock, game 1 started, White (seat 0) to roll."""
    state = MatchState(
        rules=rule_set("traditional", match_length=5, doubling_cube=True), time_control=control
    )
    state, _ = engine.begin(state, dice=pairs((6, 1)), now=T0)
    assert state.game is not None and state.game.mover_seat == 0
    return state


def test_nardeon_an_offer_charges_the_doubler_and_the_answerer_may_lose_on_time() -> None:
    state = _cube_match("nardeon")
    offered_at = T0 + seconds(20)  # 8 s beyond White's 12 free seconds
    state, _ = engine.double(state, seat=0, now=offered_at)
    game = state.game
    assert game is not None and game.clock_seat == 1
    assert state.reserve_ms == (112_000, 120_000)
    # Black's clock: 12 s + its 120 s reserve, capped at 60 s for the offer.
    assert game.turn_deadline == offered_at + seconds(60)
    over, events = engine.timeout(state, dice=pairs(), now=game.turn_deadline)
    assert [type(event) for event in events] == [MatchOver]
    assert (over.end_reason, over.winner_seat) == ("time", 0)


def test_nardeon_a_take_gives_the_doubler_a_fresh_clock_on_its_own_reserve() -> None:
    state = _cube_match("nardeon")
    state, _ = engine.double(state, seat=0, now=T0 + seconds(20))
    taken_at = T0 + seconds(50)  # Black spent 18 s beyond its 12 free seconds
    state, _ = engine.take(state, seat=1, now=taken_at)
    game = state.game
    assert game is not None and game.clock_seat == 0 and game.cube_value == 2
    assert state.reserve_ms == (112_000, 102_000)
    assert game.turn_deadline == taken_at + seconds(60)  # 12 + 112 s, capped at 60


def test_omerta_an_offer_and_a_take_start_the_step_timer_again() -> None:
    state = _cube_match("omerta")
    offered_at = T0 + seconds(50)
    state, _ = engine.double(state, seat=0, now=offered_at)
    assert state.game is not None and state.game.turn_deadline == offered_at + seconds(90)
    taken_at = offered_at + seconds(30)
    state, _ = engine.take(state, seat=1, now=taken_at)
    assert state.game is not None and state.game.turn_deadline == taken_at + seconds(90)
    assert state.reserve_ms == (0, 0)


def test_forced_turns_wait_for_the_doubling_decision_then_play_after_the_take() -> None:
    rules = rule_set("traditional", match_length=5, doubling_cube=True)
    everyone = frozenset({0, 1})
    state, events = engine.begin(
        MatchState(rules=rules, turn_seconds=60), dice=pairs((6, 1), (5, 5)), now=T0,
        auto_roll=everyone, forced=everyone,
    )  # fmt: skip
    # White may double: nothing is rolled or played for it.
    assert state.game is not None and state.game.phase == "roll" and state.may_double(0)
    assert not any(isinstance(event, (Rolled, TurnEnded)) for event in events)
    # A race White wins with any roll that bears off both checkers: 6-5 is its only turn.
    board = board_from_points({2: 1, 1: 1}, {6: 15})
    game = dataclasses.replace(
        state.game, board=board, turn_board=board, white_has_moved=True, black_has_moved=True
    )
    state = dataclasses.replace(state, game=game)
    state, _ = engine.double(state, seat=0, now=T0 + seconds(1))
    state, events = engine.take(
        state, seat=1, now=T0 + seconds(2), dice=pairs((6, 5)), auto_roll=everyone,
        forced=everyone,
    )  # fmt: skip
    assert isinstance(events[0], CubeTaken)
    turn = next(event for event in events if isinstance(event, TurnEnded))
    assert turn.seat == 0 and not turn.by_server and len(turn.steps) == 2
    over = next(event for event in events if isinstance(event, GameOver))
    assert (over.result, over.points) == ("cube", 2)
