"""The match state machine (nardy/match): table tests per rule and property tests over
whole matches (docs/rules.md, "Who starts, colours, games and matches", "Platform rules")."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy import (
    START_BOARD,
    IllegalMove,
    Step,
    board_from_points,
    choose_rest_of_turn,
    legal_next_steps,
    rule_set,
)
from nardy import match as engine
from nardy.match import (
    DiceSource,
    GameOver,
    MatchOver,
    MatchRuleError,
    MatchState,
    Rolled,
    Started,
    TimedOut,
    TurnEnded,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def pairs(*values: tuple[int, int]) -> DiceSource:
    """Dice in the order given, whatever the roll number (the engine's numbering is checked by
    numbered())."""
    queue = iter(values)

    def draw(game: int, roll: int) -> tuple[int, int]:
        try:
            return next(queue)
        except StopIteration:
            raise AssertionError("the operation drew more dice than the test gave") from None

    return draw


def random_pairs(rng: random.Random, asked: list | None = None) -> DiceSource:
    """Random dice; each (game, roll number) the engine asks for is noted in ``asked``."""

    def draw(game: int, roll: int) -> tuple[int, int]:
        pair = (rng.randint(1, 6), rng.randint(1, 6))
        if asked is not None:
            asked.append((game, roll, pair))
        return pair

    return draw


def new_state(**rules: object) -> MatchState:
    turn_seconds = rules.pop("turn_seconds", 60)
    reserve_seconds = rules.pop("reserve_seconds", 0)
    return MatchState(
        rules=rule_set("traditional", **rules),  # type: ignore[arg-type]
        turn_seconds=turn_seconds,  # type: ignore[arg-type]
        reserve_seconds=reserve_seconds,  # type: ignore[arg-type]
    )


# --- Table tests ---------------------------------------------------------------------------------


def test_opening_roll_ties_are_rolled_again_and_the_higher_die_plays_white() -> None:
    state, events = engine.begin(new_state(), dice=pairs((3, 3), (2, 5)), now=T0)
    (started,) = events
    assert isinstance(started, Started)
    assert started.white_seat == 1 and started.opening == engine.OpeningRoll(5, 2, ((3, 3),))
    assert state.status == "active" and state.started_at == T0
    assert state.game is not None and state.game.phase == "roll" and state.game.mover_seat == 1
    assert state.game.turn_deadline == T0 + timedelta(seconds=60)


def test_play_roll_opening_plays_the_opening_numbers() -> None:
    state, events = engine.begin(new_state(opening="play_roll"), dice=pairs((4, 6)), now=T0)
    assert [type(event) for event in events] == [Started, Rolled]
    assert state.game is not None and (state.game.phase, state.game.dice) == ("move", (6, 4))


def test_operations_refuse_with_a_code_and_change_nothing() -> None:
    state, _ = engine.begin(new_state(), dice=pairs((6, 2)), now=T0)
    cases = [
        (lambda: engine.roll(state, seat=1, dice=pairs((1, 2)), now=T0), "not_your_turn"),
        (lambda: engine.undo(state, seat=0), "not_rolled"),
        (lambda: engine.begin(state, dice=pairs((1, 2)), now=T0), "match_not_active"),
        (lambda: engine.cancel(state, now=T0), "match_not_active"),
        (lambda: engine.timeout(state, dice=pairs(), now=T0), "not_timed_out"),
    ]
    for call, code in cases:
        with pytest.raises(MatchRuleError) as refused:
            call()
        assert refused.value.code == code
    rolled, _ = engine.roll(state, seat=0, dice=pairs((5, 3)), now=T0)
    with pytest.raises(MatchRuleError, match="already rolled"):
        engine.roll(rolled, seat=0, dice=pairs((1, 2)), now=T0)
    with pytest.raises(MatchRuleError) as refused:
        engine.undo(rolled, seat=0)
    assert refused.value.code == "nothing_to_undo"
    with pytest.raises(IllegalMove, match="does not begin|lands on"):
        engine.step(rolled, seat=0, step=Step(24, 20, 3), dice=pairs(), now=T0)


def test_undo_only_where_the_rule_set_allows_it() -> None:
    for undo_allowed in (True, False):
        state, _ = engine.begin(new_state(undo_allowed=undo_allowed), dice=pairs((6, 2)), now=T0)
        state, _ = engine.roll(state, seat=0, dice=pairs((5, 3)), now=T0)
        played, _ = engine.step(state, seat=0, step=Step(24, 19, 5), dice=pairs(), now=T0)
        if undo_allowed:
            undone, events = engine.undo(played, seat=0)
            assert undone == state and len(events) == 1
        else:
            with pytest.raises(MatchRuleError, match="final"):
                engine.undo(played, seat=0)


def test_time_beyond_the_turn_comes_out_of_the_reserve_bank() -> None:
    state, _ = engine.begin(new_state(reserve_seconds=60), dice=pairs((6, 2)), now=T0)
    assert state.reserve_ms == (60_000, 60_000)
    assert state.game is not None and state.game.turn_deadline == T0 + timedelta(seconds=120)
    later = T0 + timedelta(seconds=75)  # 15 s over the 60 s turn
    state, _ = engine.roll(state, seat=0, dice=pairs((6, 5)), now=later)
    for chosen in choose_rest_of_turn(state.turn_state()):
        state, events = engine.step(state, seat=0, step=chosen, dice=pairs(), now=later)
    assert isinstance(events[-1], TurnEnded)
    assert state.reserve_ms == (45_000, 60_000)
    assert state.game is not None and state.game.turn_deadline == later + timedelta(seconds=120)


def test_a_timeout_plays_the_turn_and_the_third_loses_the_match() -> None:
    state, _ = engine.begin(new_state(), dice=pairs((6, 2)), now=T0)
    now = T0
    for count in (1, 2):
        now = state.game.turn_deadline  # type: ignore[union-attr]
        mover = state.game.mover_seat  # type: ignore[union-attr]
        state, events = engine.timeout(state, dice=pairs((5, 3)), now=now)
        assert events[0] == TimedOut(seat=mover, side=events[0].side, timeouts=count)
        ended = [event for event in events if isinstance(event, TurnEnded)]
        assert ended and ended[0].by_server and len(ended[0].steps) == 2
        # The other side timed out too, so each seat's count goes up in turn.
        state, _ = engine.timeout(state, dice=pairs((4, 1)), now=state.game.turn_deadline)  # type: ignore[union-attr]
    assert state.timeouts == (2, 2)
    state, events = engine.timeout(state, dice=pairs(), now=state.game.turn_deadline)  # type: ignore[union-attr]
    assert events[-1] == MatchOver(winner_seat=1, reason="timeouts", at=events[-1].at)
    assert state.status == "finished" and state.winner_seat == 1
    assert state.game is not None and state.game.phase == "over"


def test_automatic_rolls_are_bounded() -> None:
    # Both sides roll automatically and neither can move: the chain stops and waits.
    blocked = board_from_points({24: 14, 6: 1}, {24: 14, 6: 1})  # each 6 lands on the other
    state, _ = engine.begin(new_state(), dice=pairs((6, 2)), now=T0)
    game = engine.GameState(
        number=1, white_seat=0, turn_started_at=T0, board=blocked, turn_board=blocked
    )
    state = MatchState(**{**state.__dict__, "game": game})
    state, events = engine.roll(
        state, seat=0, dice=pairs(*[(6, 6)] * 20), now=T0, auto_roll=frozenset({0, 1})
    )
    assert sum(isinstance(event, Rolled) for event in events) == engine.MAX_AUTOMATIC_ROLLS
    assert state.game is not None and state.game.phase == "roll"


def test_the_winner_of_a_game_starts_the_next_with_white() -> None:
    # White (seat 1) has one checker left on point 1 and bears it off: an oin (Black bore off).
    board = board_from_points({1: 1}, {1: 10})
    state, _ = engine.begin(new_state(match_length=3), dice=pairs((2, 5)), now=T0)
    state = MatchState(**{**state.__dict__, "game": engine.GameState(
        number=1, white_seat=1, turn_started_at=T0, board=board, turn_board=board,
        white_has_moved=True, black_has_moved=True)})  # fmt: skip
    state, _ = engine.roll(state, seat=1, dice=pairs((2, 1)), now=T0)
    state, events = engine.step(state, seat=1, step=Step(1, 0, 2), dice=pairs(), now=T0)
    over = [event for event in events if isinstance(event, GameOver)]
    assert over == [GameOver(game=1, winner="w", result="oin", points=1, at=T0)]
    assert state.score.points == (0, 1) and state.status == "active"
    assert state.game is not None and (state.game.number, state.game.white_seat) == (2, 1)
    assert state.game.board == START_BOARD and state.game.opening is None


def test_resign_leave_abort_and_cancel() -> None:
    open_state = new_state()
    cancelled, events = engine.cancel(open_state, now=T0)
    assert cancelled.status == "cancelled" and len(events) == 1
    state, _ = engine.begin(open_state, dice=pairs((6, 2)), now=T0)
    resigned, _ = engine.resign(state, seat=0, now=T0)
    assert (resigned.status, resigned.end_reason, resigned.winner_seat) == (
        "finished",
        "resigned",
        1,
    )
    left, _ = engine.resign(state, seat=1, now=T0, left_table=True)
    assert (left.end_reason, left.winner_seat) == ("left", 0)
    aborted, _ = engine.abort(state, now=T0)
    assert (aborted.status, aborted.winner_seat, aborted.game.phase) == ("aborted", None, "over")  # type: ignore[union-attr]
    with pytest.raises(MatchRuleError):
        engine.resign(resigned, seat=1, now=T0)


def test_a_ban_ends_the_match_as_the_banned_seats_loss() -> None:
    """A moderator's ban: like resigning, with reason `banned`; only while active."""
    state, _ = engine.begin(new_state(), dice=pairs((6, 2)), now=T0)
    banned, events = engine.ban(state, seat=1, now=T0)
    assert (banned.status, banned.end_reason, banned.winner_seat) == ("finished", "banned", 0)
    assert [type(event).__name__ for event in events] == ["MatchOver"]
    assert engine.replay(state, events) == banned
    with pytest.raises(MatchRuleError):
        engine.ban(banned, seat=0, now=T0)
    with pytest.raises(MatchRuleError):
        engine.ban(new_state(), seat=0, now=T0)


def test_abort_before_the_start_until_each_player_has_moved() -> None:
    state, _ = engine.begin(new_state(), dice=pairs((6, 2)), now=T0)
    assert state.abortable
    aborted, events = engine.abort_before_start(state, seat=1, now=T0)
    assert (aborted.status, aborted.winner_seat, aborted.aborted_by) == ("aborted", None, 1)
    assert events[0].aborted_by == 1
    game = state.game
    assert game is not None
    one_moved = dataclasses.replace(state, game=dataclasses.replace(game, white_has_moved=True))
    assert engine.abort_before_start(one_moved, seat=0, now=T0)[0].status == "aborted"
    both = dataclasses.replace(
        state, game=dataclasses.replace(game, white_has_moved=True, black_has_moved=True)
    )
    assert not both.abortable
    with pytest.raises(MatchRuleError) as refused:
        engine.abort_before_start(both, seat=0, now=T0)
    assert refused.value.code == "not_abortable"
    second_game = dataclasses.replace(state, game=dataclasses.replace(game, number=2))
    with pytest.raises(MatchRuleError):
        engine.abort_before_start(second_game, seat=0, now=T0)
    with pytest.raises(MatchRuleError):
        engine.abort_before_start(aborted, seat=0, now=T0)


# --- Property tests ------------------------------------------------------------------------------

MATCH_SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def play_match(
    seed: int, rules: dict[str, object], *, hostile: bool, asked: list | None = None
) -> tuple[MatchState, MatchState, list[engine.Event]]:
    """Random legal play to the end; with ``hostile`` also undos, timeouts and resigning."""
    rng = random.Random(seed)
    dice = random_pairs(rng, asked)
    auto_roll = frozenset(seat for seat in (0, 1) if rng.random() < 0.3)
    first = new_state(**rules)
    state, log = engine.begin(first, dice=dice, now=T0, auto_roll=auto_roll)
    now = T0
    while state.status == "active":
        now += timedelta(seconds=rng.randint(1, 40))
        game = state.game
        assert game is not None
        seat = game.mover_seat
        chance = rng.random()
        if hostile and chance < 0.002:
            state, events = engine.resign(state, seat=seat, now=now, left_table=rng.random() < 0.5)
        elif hostile and chance < 0.01 and game.turn_deadline is not None:
            now = max(now, game.turn_deadline)
            state, events = engine.timeout(state, dice=dice, now=now, auto_roll=auto_roll)
        elif game.cube_offer is not None:
            answer = engine.take if rng.random() < 0.7 else engine.drop
            state, events = answer(
                state, seat=1 - game.cube_offer, now=now, dice=dice, auto_roll=auto_roll
            )
        elif state.may_double(seat) and chance < 0.15:
            state, events = engine.double(state, seat=seat, now=now)
        elif game.phase == "roll":
            state, events = engine.roll(state, seat=seat, dice=dice, now=now, auto_roll=auto_roll)
        elif hostile and game.steps and state.rules.undo_allowed and chance < 0.1:
            state, events = engine.undo(state, seat=seat)
        else:
            choice = rng.choice(legal_next_steps(state.turn_state()))  # type: ignore[arg-type]
            state, events = engine.step(
                state, seat=seat, step=choice, dice=dice, now=now, auto_roll=auto_roll
            )
        log += events
    return first, state, log


rules_strategy = st.fixed_dictionaries(
    {
        "six_block": st.sampled_from(["end_of_turn", "every_step"]),
        "head_exception": st.sampled_from(["classic", "generalised"]),
        "opening": st.sampled_from(["reroll", "play_roll"]),
        "undo_allowed": st.booleans(),
        "match_length": st.sampled_from([1, 1, 3, 5]),
        "turn_seconds": st.sampled_from([None, 30, 120]),
        "reserve_seconds": st.sampled_from([0, 60]),
        "single_die": st.sampled_from(["larger", "choice"]),
        "block_release": st.sampled_from(["ahead", "home"]),
        "game_starter": st.sampled_from(["winner", "opening_roll"]),
        "doubling_cube": st.booleans(),
        "cube_raise": st.sampled_from(["geometric", "arithmetic"]),
        "crawford": st.booleans(),
    }
).filter(lambda rules: not (rules["doubling_cube"] and rules["match_length"] == 1))


@MATCH_SETTINGS
@given(st.integers(0, 2**32), rules_strategy)
def test_replaying_the_event_log_gives_the_final_state(seed, rules) -> None:
    first, final, log = play_match(seed, rules, hostile=rules["turn_seconds"] is not None)
    assert final.status == "finished"
    assert engine.replay(first, log) == final


@MATCH_SETTINGS
@given(st.integers(0, 2**32), rules_strategy)
def test_random_legal_play_ends_with_a_winner_and_the_sum_of_game_points(seed, rules) -> None:
    first, final, log = play_match(seed, rules, hostile=False)
    assert final.status == "finished" and final.end_reason == "finished"
    assert final.winner_seat is not None
    points = [0, 0]
    white_seat = None
    for event in log:
        if isinstance(event, Started):
            white_seat = event.white_seat
        if isinstance(event, GameOver):
            winner = white_seat if event.winner == "w" else 1 - white_seat  # type: ignore[operator]
            points[winner] += event.points
    assert final.score.points == tuple(points)
    assert points[final.winner_seat] >= final.rules.match_length > points[1 - final.winner_seat]
    assert sum(isinstance(event, MatchOver) for event in log) == 1


@MATCH_SETTINGS
@given(st.integers(0, 2**32), rules_strategy)
def test_every_roll_is_numbered_from_one_in_each_game_and_recorded(seed, rules) -> None:
    """The dice source is asked for rolls 1, 2, 3, ... of each game in turn, opening ties
    included (games/fairness keys each roll by them), and every roll drawn is in the events
    with its number: the opening's ties and deciding roll, then each Rolled."""
    asked: list[tuple[int, int, tuple[int, int]]] = []
    _first, final, log = play_match(
        seed, rules, hostile=rules["turn_seconds"] is not None, asked=asked
    )
    by_game: dict[int, list[int]] = {}
    for game, roll, _pair in asked:
        by_game.setdefault(game, []).append(roll)
    for rolls in by_game.values():
        assert rolls == list(range(1, len(rolls) + 1))
    recorded: list[tuple[int, int, tuple[int, int]]] = []
    game_number = 0
    for event in log:
        if isinstance(event, Started):
            game_number = event.game
            if event.opening is not None:
                ties = event.opening.ties
                recorded += [(game_number, n, tie) for n, tie in enumerate(ties, start=1)]
                opening = {event.opening.white, event.opening.black}
                deciding = next(
                    pair for g, r, pair in asked if (g, r) == (game_number, len(ties) + 1)
                )
                assert set(deciding) == opening
                recorded.append((game_number, len(ties) + 1, deciding))
        elif isinstance(event, Rolled) and (game_number, event.roll) not in {
            (g, r) for g, r, _ in recorded
        }:
            recorded.append((game_number, event.roll, event.dice))
        elif isinstance(event, TurnEnded):
            assert event.roll is not None
    assert recorded == asked
    assert final.game is not None
    assert final.game.rolls == by_game.get(final.game.number, [0])[-1]
