"""The rule pages' remaining variants (docs/rules.md): the doubling cube ("dave", the Ukrainian
rules page), the Ukrainian options (which die when only one can be played; when a six-point block is
allowed) and Omerta's opening roll before every game (the Russian rules page). Each table case
differs from the default exactly where the page says; both turn generators are checked on each."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from nardy import (
    START_BOARD,
    Step,
    board_from_points,
    has_illegal_block,
    legal_end_boards,
    legal_turns,
    rule_set,
)
from nardy import match as engine
from nardy.cube import MAX_CUBE_VALUE, raised_value, starts_crawford_game
from nardy.cube_advice import should_double, should_take, winning_chance
from nardy.match import (
    CubeDropped,
    CubeOffered,
    CubeTaken,
    GameOver,
    MatchOver,
    MatchRuleError,
    MatchState,
    Started,
    TimedOut,
    TurnEnded,
)

from .test_match import T0, new_state, pairs


def both_generators(board, side, dice, rules, first_turn=False):
    """The end boards, asserting the literal oracle and the fast generator agree."""
    fast = legal_end_boards(board, side, dice, first_turn, rules)
    assert fast == frozenset(legal_turns(board, side, dice, first_turn, rules))
    return fast


# --- Ukrainian: which die when only one can be played --------------------------------------------

# White's last checker on its 13 (fourteen borne off); Black holds White's 4 (Black's 16), so 6-3
# plays one die only: 13/7 or 13/10, never both (7/4 and 10/4 land on Black).
ONE_DIE_BOARD = board_from_points({13: 1}, {16: 15})


def white_on(board, point: int) -> bool:
    from nardy import own_point_to_index

    return board[own_point_to_index("w", point)] > 0


def test_only_one_die_playable_the_larger_by_default_either_by_choice() -> None:
    default = both_generators(ONE_DIE_BOARD, "w", (6, 3), rule_set("traditional"))
    assert [p for p in (7, 10) if any(white_on(end, p) for end in default)] == [7]
    chosen = both_generators(
        ONE_DIE_BOARD, "w", (6, 3), rule_set("traditional", single_die="choice")
    )
    assert [p for p in (7, 10) if any(white_on(end, p) for end in chosen)] == [7, 10]


def test_the_choice_changes_nothing_when_both_dice_can_be_played() -> None:
    for dice in [(6, 5), (3, 1), (4, 4)]:
        larger = both_generators(START_BOARD, "w", dice, rule_set("traditional"), first_turn=True)
        choice = both_generators(
            START_BOARD, "w", dice, rule_set("traditional", single_die="choice"), first_turn=True
        )
        assert larger == choice


# --- Ukrainian: a six-point block once an opposing checker reached its home ----------------------

# White holds its 11..7 and has a checker on 13 that can close 6 with 4-3 (13/9/6 or 13/10/6):
# six in a row on Black's 23..18. One Black checker is on Black's 10: ahead of the block but not
# home. Black's other fourteen are on its head.
BLOCK_BOARD = board_from_points({13: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 20: 9}, {24: 14, 10: 1})


def closes_block(board) -> bool:
    return all(white_on(board, p) for p in range(6, 12))


@pytest.mark.parametrize("six_block", ["end_of_turn", "every_step"])
def test_block_with_a_checker_ahead_allowed_by_default_not_before_one_is_home(six_block) -> None:
    ahead = rule_set("traditional", six_block=six_block)
    home = rule_set("traditional", six_block=six_block, block_release="home")
    assert any(closes_block(end) for end in both_generators(BLOCK_BOARD, "w", (4, 3), ahead))
    assert not any(closes_block(end) for end in both_generators(BLOCK_BOARD, "w", (4, 3), home))


def test_block_allowed_under_both_once_an_opposing_checker_is_home() -> None:
    # The same, with the lone Black checker in its home (Black's 5): both rules allow the block.
    board = board_from_points({13: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 20: 9}, {24: 14, 5: 1})
    for release in ("ahead", "home"):
        rules = rule_set("traditional", block_release=release)
        assert any(closes_block(end) for end in both_generators(board, "w", (4, 3), rules))
    closed = next(end for end in both_generators(board, "w", (4, 3), rules) if closes_block(end))
    assert not has_illegal_block(closed, "w", "home")


def test_block_with_every_opposing_checker_behind_is_refused_by_both() -> None:
    board = board_from_points({13: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 20: 9}, {24: 15})
    for release in ("ahead", "home"):
        rules = rule_set("traditional", block_release=release)
        assert not any(closes_block(end) for end in both_generators(board, "w", (4, 3), rules))


# --- Omerta: the opening roll before every game --------------------------------------------------


def finish_game_one(state: MatchState, winner_seat: int) -> MatchState:
    """Put ``winner_seat``'s side one step from bearing off its last checker and play it."""
    game = state.game
    assert game is not None
    board = board_from_points({1: 1}, {1: 10})
    white_game = dataclasses.replace(
        game, white_seat=winner_seat, board=board, turn_board=board, turn="w", phase="roll",
        white_has_moved=True, black_has_moved=True,
    )  # fmt: skip
    state = dataclasses.replace(state, game=white_game)
    state, _ = engine.roll(state, seat=winner_seat, dice=pairs((2, 1)), now=T0)
    return state


def test_winner_starts_the_next_game_by_default() -> None:
    state, _ = engine.begin(new_state(match_length=3), dice=pairs((5, 2)), now=T0)
    state, events = engine.step(
        finish_game_one(state, 1), seat=1, step=Step(1, 0, 2), dice=pairs(), now=T0
    )
    started = [event for event in events if isinstance(event, Started)]
    assert started == [Started(game=2, white_seat=1, at=T0)]


def test_omerta_rolls_the_opening_again_before_every_game() -> None:
    rules = {"match_length": 3, "game_starter": "opening_roll"}
    state, _ = engine.begin(new_state(**rules), dice=pairs((5, 2)), now=T0)
    # Seat 1 wins game 1, but seat 0 wins game 2's opening roll (after a tie) and plays White.
    state, events = engine.step(
        finish_game_one(state, 1), seat=1, step=Step(1, 0, 2), dice=pairs((3, 3), (6, 4)),
        now=T0,
    )  # fmt: skip
    started = [event for event in events if isinstance(event, Started)]
    assert len(started) == 1 and started[0].white_seat == 0
    assert started[0].opening == engine.OpeningRoll(white=6, black=4, ties=((3, 3),))


# --- The doubling cube ---------------------------------------------------------------------------


def cube_state(**rules: object) -> MatchState:
    """A match to 5 with the cube, game 1 started, seat 0 (White) to roll."""
    options = {"match_length": 5, "doubling_cube": True, **rules}
    state, _ = engine.begin(new_state(**options), dice=pairs((6, 1)), now=T0)
    assert state.game is not None and state.game.mover_seat == 0
    return state


def test_no_cube_in_one_point_matches_and_none_without_the_option() -> None:
    with pytest.raises(ValueError):
        rule_set("traditional", doubling_cube=True)
    state, _ = engine.begin(new_state(match_length=3), dice=pairs((6, 1)), now=T0)
    with pytest.raises(MatchRuleError) as refused:
        engine.double(state, seat=0, now=T0)
    assert refused.value.code == "cube_not_allowed"


def test_offer_take_and_ownership() -> None:
    state = cube_state()
    assert state.may_double(0) and not state.may_double(1)  # only the mover, before rolling
    state, events = engine.double(state, seat=0, now=T0)
    assert events == [CubeOffered(seat=0, side="w", value=2, at=T0)]
    for command in (
        lambda: engine.roll(state, seat=0, dice=pairs((3, 1)), now=T0),  # waits for the answer
        lambda: engine.double(state, seat=0, now=T0),
        lambda: engine.take(state, seat=0, now=T0),  # the doubler cannot answer
    ):
        with pytest.raises(MatchRuleError):
            command()
    state, events = engine.take(state, seat=1, now=T0)
    assert events == [CubeTaken(seat=1, side="b", value=2, at=T0)]
    game = state.game
    assert game is not None and (game.cube_value, game.cube_owner, game.cube_offer) == (2, 1, None)
    assert not state.may_double(0)  # the cube is the taker's now
    state, _ = engine.roll(state, seat=0, dice=pairs((3, 1)), now=T0)
    state, events = engine.step(state, seat=0, step=Step(24, 21, 3), dice=pairs(), now=T0)
    state, events = engine.step(state, seat=0, step=Step(21, 20, 1), dice=pairs(), now=T0)
    logged = [event for event in events if isinstance(event, TurnEnded)]
    assert logged[0].doubled_to == 2  # the move log shows the double with the turn
    # Black, the owner, may redouble; after White takes, the cube is White's.
    assert state.may_double(1)
    state, _ = engine.double(state, seat=1, now=T0)
    state, _ = engine.take(state, seat=0, now=T0)
    assert state.game is not None and (state.game.cube_value, state.game.cube_owner) == (4, 0)
    with pytest.raises(MatchRuleError) as refused:
        engine.double(state, seat=1, now=T0)
    assert refused.value.code == "not_cube_owner"  # Black rolls now; White owns the cube


def test_arithmetic_raises_go_one_two_three() -> None:
    geometric = rule_set("traditional", match_length=5, doubling_cube=True)
    arithmetic = rule_set(
        "traditional", match_length=5, doubling_cube=True, cube_raise="arithmetic"
    )
    values = [1]
    for _ in range(4):
        values.append(raised_value(values[-1], geometric))
    assert values == [1, 2, 4, 8, 16]
    values = [1]
    for _ in range(4):
        values.append(raised_value(values[-1], arithmetic))
    assert values == [1, 2, 3, 4, 5]
    state = cube_state(cube_raise="arithmetic")
    state, _ = engine.double(state, seat=0, now=T0)
    state, _ = engine.take(state, seat=1, now=T0)
    game = state.game
    assert game is not None
    game = dataclasses.replace(game, turn="b", cube_value=2)  # Black, the owner, to roll
    state, events = engine.double(dataclasses.replace(state, game=game), seat=1, now=T0)
    assert events[0].value == 3  # type: ignore[union-attr]
    top = dataclasses.replace(game, cube_value=MAX_CUBE_VALUE)
    assert not dataclasses.replace(state, game=top).may_double(1)


def test_drop_loses_the_game_at_the_value_before_the_offer_and_the_next_starts() -> None:
    state = cube_state()
    game = state.game
    assert game is not None
    state = dataclasses.replace(state, game=dataclasses.replace(game, cube_value=2, cube_owner=0))
    state, _ = engine.double(state, seat=0, now=T0)
    state, events = engine.drop(state, seat=1, now=T0, dice=pairs())
    assert events[:2] == [
        CubeDropped(seat=1, side="b", value=2, by_server=False, at=T0),
        GameOver(game=1, winner="w", result="drop", points=2, at=T0),
    ]
    assert state.score.points == (2, 0) and state.game is not None and state.game.number == 2
    assert (state.game.cube_value, state.game.cube_owner) == (1, None)  # a new game, a new cube


def test_cube_game_is_worth_the_cube_never_mars() -> None:
    # White bears off its last checker while Black has borne off none (a mars without the cube).
    board = board_from_points({1: 1}, {14: 15})
    for cube, expected in ((False, ("mars", 2)), (True, ("cube", 4))):
        state, _ = engine.begin(new_state(match_length=5, doubling_cube=cube), dice=pairs((6, 1)),
                                now=T0)  # fmt: skip
        game = state.game
        assert game is not None
        game = dataclasses.replace(game, board=board, turn_board=board, cube_value=4,
                                   white_has_moved=True, black_has_moved=True)  # fmt: skip
        state = dataclasses.replace(state, game=game)
        if cube:
            state = dataclasses.replace(state, game=dataclasses.replace(game, cube_owner=1))
        state, _ = engine.roll(state, seat=0, dice=pairs((2, 1)), now=T0)
        state, events = engine.step(state, seat=0, step=Step(1, 0, 2), dice=pairs(), now=T0)
        over = next(event for event in events if isinstance(event, GameOver))
        assert (over.result, over.points) == expected
        assert state.score.points == (expected[1], 0)


def test_crawford_game_has_no_doubling_and_comes_once() -> None:
    rules = rule_set("traditional", match_length=5, doubling_cube=True)
    assert starts_crawford_game(rules, (4, 2), 0)
    assert not starts_crawford_game(rules, (4, 2), 3)  # once per match
    assert not starts_crawford_game(rules, (3, 2), 0)
    assert not starts_crawford_game(dataclasses.replace(rules, crawford=False), (4, 2), 0)
    # Seat 0 reaches 4 of 5 by a drop at 4: game 2 is the Crawford game.
    state = cube_state()
    game = state.game
    assert game is not None
    state = dataclasses.replace(state, game=dataclasses.replace(game, cube_value=4, cube_owner=0))
    state, _ = engine.double(state, seat=0, now=T0)
    state, events = engine.drop(state, seat=1, now=T0, dice=pairs((2, 5)))
    started = next(event for event in events if isinstance(event, Started))
    assert started.crawford and state.crawford_game == 2 and state.score.points == (4, 0)
    assert state.game is not None and not state.may_double(state.game.mover_seat)
    with pytest.raises(MatchRuleError) as refused:
        engine.double(state, seat=state.game.mover_seat, now=T0)
    assert refused.value.code == "crawford_game"
    # Without the Crawford rule the same game allows doubling.
    free = dataclasses.replace(state, rules=dataclasses.replace(state.rules, crawford=False),
                               crawford_game=0)  # fmt: skip
    assert free.may_double(free.game.mover_seat)  # type: ignore[union-attr]
    # After the Crawford game (post-Crawford) doubling is allowed again.
    game3 = dataclasses.replace(state.game, number=3)
    assert dataclasses.replace(state, game=game3).may_double(game3.mover_seat)


def test_the_offer_runs_on_the_answerers_clock_and_a_timeout_is_a_drop() -> None:
    state = cube_state(reserve_seconds=60)
    later = T0 + timedelta(seconds=70)  # White used 10 s of its reserve before doubling
    state, _ = engine.double(state, seat=0, now=later)
    game = state.game
    assert game is not None and game.clock_seat == 1
    assert state.reserve_ms == (50_000, 60_000)
    assert game.turn_deadline == later + timedelta(seconds=60 + 60)
    with pytest.raises(MatchRuleError):
        engine.timeout(state, dice=pairs(), now=later + timedelta(seconds=100))
    state, events = engine.timeout(state, dice=pairs(), now=game.turn_deadline)
    assert [type(event) for event in events[:3]] == [TimedOut, CubeDropped, GameOver]
    assert events[0] == TimedOut(seat=1, side="b", timeouts=1)
    assert events[1].by_server and state.score.points == (1, 0)  # type: ignore[union-attr]


def test_after_a_take_the_doubler_gets_a_fresh_turn_clock() -> None:
    state = cube_state()
    state, _ = engine.double(state, seat=0, now=T0 + timedelta(seconds=5))
    taken_at = T0 + timedelta(seconds=40)
    state, _ = engine.take(state, seat=1, now=taken_at)
    game = state.game
    assert game is not None and game.clock_seat == 0
    assert game.turn_deadline == taken_at + timedelta(seconds=60)


def test_auto_roll_waits_while_the_mover_may_double() -> None:
    state, _ = engine.begin(
        new_state(match_length=3, doubling_cube=True), dice=pairs((6, 1)), now=T0,
        auto_roll=frozenset({0, 1}),
    )  # fmt: skip
    assert state.game is not None and state.game.phase == "roll"  # not rolled for seat 0
    state, _ = engine.double(state, seat=0, now=T0)
    state, events = engine.take(state, seat=1, now=T0, dice=pairs((3, 1)),
                                auto_roll=frozenset({0, 1}))  # fmt: skip
    assert state.game is not None and state.game.phase == "move"  # seat 0 cannot double now


def test_the_auto_move_doubles_when_clearly_ahead_and_plays_on_after_a_take() -> None:
    ahead = board_from_points({3: 15}, {20: 15})  # White 45 pips, Black 300
    state = cube_state()
    game = state.game
    assert game is not None
    game = dataclasses.replace(game, board=ahead, turn_board=ahead, white_has_moved=True,
                               black_has_moved=True)  # fmt: skip
    state = dataclasses.replace(state, game=game)
    assert game.turn_deadline is not None
    doubled, events = engine.timeout(state, dice=pairs(), now=game.turn_deadline)
    assert [type(event) for event in events] == [TimedOut, CubeOffered]
    assert events[1] == CubeOffered(seat=0, side="w", value=2, at=game.turn_deadline,
                                    by_server=True)  # fmt: skip
    # Taken: the server rolls and plays White's turn at once (no second timeout).
    taken, events = engine.take(doubled, seat=1, now=game.turn_deadline, dice=pairs((3, 1)))
    turns = [event for event in events if isinstance(event, TurnEnded)]
    assert len(turns) == 1 and turns[0].by_server and turns[0].doubled_to == 2
    assert taken.timeouts == (1, 0) and taken.game is not None and taken.game.turn == "b"
    # Dropped: White wins the game at 1.
    dropped, _ = engine.drop(doubled, seat=1, now=game.turn_deadline, dice=pairs())
    assert dropped.score.points == (1, 0)
    # Not clearly ahead (the start position), or the stake already winning the match: no double.
    even, events = engine.timeout(cube_state(), dice=pairs((3, 1)), now=game.turn_deadline)
    assert not any(isinstance(event, CubeOffered) for event in events)
    near = dataclasses.replace(state, score=dataclasses.replace(state.score, points=(4, 0)))
    _, events = engine.timeout(near, dice=pairs((3, 1)), now=game.turn_deadline)
    assert not any(isinstance(event, CubeOffered) for event in events)


def test_the_third_timeout_on_an_offer_loses_the_match() -> None:
    state = cube_state()
    state = dataclasses.replace(state, timeouts=(0, 2))
    state, _ = engine.double(state, seat=0, now=T0)
    assert state.game is not None and state.game.turn_deadline is not None
    state, events = engine.timeout(state, dice=pairs(), now=state.game.turn_deadline)
    assert isinstance(events[-1], MatchOver) and state.winner_seat == 0


# --- The cube evaluation -------------------------------------------------------------------------


def test_cube_advice_doubles_when_clearly_ahead_and_takes_unless_clearly_lost() -> None:
    even = START_BOARD
    assert 0.5 < winning_chance(even, "w") < 0.6  # being on roll is a small edge
    assert not should_double(even, "w") and should_take(even, "w")
    ahead = board_from_points({3: 15}, {20: 15})  # White 45 pips, Black 300
    assert should_double(ahead, "w") and not should_take(ahead, "w")
    assert should_take(ahead, "w", points_needed=2, stake_before=2)  # a drop loses the match
    assert not should_double(ahead, "w", points_needed=1, stake=1)  # the stake wins already
    close = board_from_points({6: 10, 5: 5}, {6: 10, 5: 4, 4: 1})  # White 85, Black 84
    assert should_take(close, "w")


# --- The command line and the bench accept the turn options --------------------------------------


def test_cli_and_bench_accept_the_new_turn_options() -> None:
    import json

    from nardy.bench import run_bench
    from nardy.cli import answer_line

    request = {"board": list(ONE_DIE_BOARD), "turn": "w", "first_turn": False, "dice": [6, 3],
               "six_block": "end_of_turn"}  # fmt: skip
    assert len(answer_line(json.dumps(request))["results"]) == 1
    assert len(answer_line(json.dumps({**request, "single_die": "choice"}))["results"]) == 2
    block = {**request, "board": list(BLOCK_BOARD), "dice": [4, 3]}
    ahead = answer_line(json.dumps(block))["results"]
    home = answer_line(json.dumps({**block, "block_release": "home"}))["results"]
    assert len(home) < len(ahead)
    assert "error" in answer_line(json.dumps({**request, "block_release": "later"}))
    assert "error" in answer_line(json.dumps({**request, "single_die": 1}))
    report = run_bench(1, 1, single_die="choice", block_release="home")
    assert "single_die=choice" in report and "positions per second" in report
    with pytest.raises(ValueError):
        run_bench(1, 1, doubling_cube="yes")
