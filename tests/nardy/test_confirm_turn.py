""" "Confirm my turn" in the engine (docs/protocol.md, "confirm"): for a seat that asked, the turn
waits after its last step, for `confirm` (the turn passes as it would have) or an undo (the step
comes back, the turn goes on); time running out while it waits confirms what was played, with no
timeout counted; nothing waits for a seat that did not ask, for a step the server plays, or for a
forced turn played for the player. Refusals change nothing."""

from __future__ import annotations

import pytest

from nardy import IllegalMove, Step
from nardy import match as engine
from nardy.match import MatchRuleError, Stepped, TimedOut, TurnEnded
from tests.nardy.test_match import T0, new_state, pairs
from tests.nardy.test_table_features import _race_state, seconds

ME = frozenset({0})


def _rolled(**rules: object):
    state, _ = engine.begin(new_state(**rules), dice=pairs((6, 2)), now=T0)
    state, _ = engine.roll(state, seat=0, dice=pairs((5, 3)), now=T0)
    return state


def _played(state, confirm=ME):
    state, _ = engine.step(state, seat=0, step=Step(24, 19, 5), dice=pairs(), now=T0)
    return engine.step(state, seat=0, step=Step(19, 16, 3), dice=pairs(), now=T0, confirm=confirm)


def test_the_last_step_waits_for_confirm_then_the_turn_passes_as_before() -> None:
    waiting, events = _played(_rolled())
    assert [type(e) for e in events] == [Stepped]
    assert engine.awaiting_confirm(waiting)
    assert waiting.game.phase == "move" and waiting.game.turn == "w"
    confirmed, events = engine.confirm(waiting, seat=0, dice=pairs(), now=T0)
    assert [type(e) for e in events] == [TurnEnded]
    # The same state as without the preference: the turn passed to Black, who rolls.
    unasked, _ = _played(_rolled(), confirm=frozenset())
    assert confirmed == unasked
    assert not engine.awaiting_confirm(confirmed)


def test_undo_while_waiting_takes_the_last_step_back() -> None:
    waiting, _ = _played(_rolled())
    undone, events = engine.undo(waiting, seat=0)
    assert [type(e) for e in events] == [engine.Undone]
    assert not engine.awaiting_confirm(undone) and undone.game.steps == (Step(24, 19, 5),)
    again, _ = engine.step(undone, seat=0, step=Step(19, 16, 3), dice=pairs(), now=T0, confirm=ME)
    assert engine.awaiting_confirm(again)


def test_confirm_is_refused_out_of_place_and_changes_nothing() -> None:
    rolled = _rolled()
    half, _ = engine.step(rolled, seat=0, step=Step(24, 19, 5), dice=pairs(), now=T0)
    waiting, _ = _played(_rolled())
    cases = [
        (rolled, 0, "turn_not_complete"),  # nothing played
        (half, 0, "turn_not_complete"),  # a die left
        (waiting, 1, "not_your_turn"),  # the other player
    ]
    begun, _ = engine.begin(new_state(), dice=pairs((6, 2)), now=T0)
    cases.append((begun, 0, "not_rolled"))  # before rolling
    for state, seat, code in cases:
        with pytest.raises(MatchRuleError) as refused:
            engine.confirm(state, seat=seat, dice=pairs(), now=T0)
        assert refused.value.code == code
    confirmed, _ = engine.confirm(waiting, seat=0, dice=pairs(), now=T0)
    with pytest.raises(MatchRuleError) as replayed:  # confirmed once: Black must roll now
        engine.confirm(confirmed, seat=0, dice=pairs(), now=T0)
    assert replayed.value.code == "not_your_turn"
    with pytest.raises(IllegalMove):  # no step after the whole turn, waiting or not
        engine.step(waiting, seat=0, step=Step(16, 13, 3), dice=pairs(), now=T0, confirm=ME)


def test_time_running_out_while_waiting_confirms_without_a_timeout() -> None:
    waiting, _ = _played(_rolled())
    late = waiting.game.turn_deadline + seconds(1)
    after, events = engine.timeout(waiting, dice=pairs(), now=late)
    assert [type(e) for e in events] == [TurnEnded]
    assert not any(isinstance(e, TimedOut) for e in events)
    assert after.timeouts == waiting.timeouts and events[0].by_server is False
    assert after.game.turn == "b"


def test_nothing_waits_for_forced_turns_or_the_other_seat() -> None:
    state = _race_state()
    # 6-5 bears off both checkers: one legal turn, played for the player and not held.
    played, events = engine.roll(state, seat=0, dice=pairs((6, 5)), now=T0, forced=ME)
    assert played.status == "finished"
    other, _ = _played(_rolled(), confirm=frozenset({1}))
    assert not engine.awaiting_confirm(other) and other.game.turn == "b"
