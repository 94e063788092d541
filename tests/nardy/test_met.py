"""The Long Nardy match equity table (nardy/met.py, built by bench/met.py) and cube decisions
analysed with it (nardy/cube_analysis.py): entries known from the gammonless model, the table in
the repository rebuilt exactly from its stored rates, doubling right and wrong, take and drop at
known scores, and bad input refused."""

from __future__ import annotations

import math

import pytest

from nardy import met
from nardy.cube_analysis import (
    DOUBLE,
    DROP,
    NO_DOUBLE,
    TAKE,
    CubeMoment,
    decide,
    game_cube_decisions,
)
from nardy.met import ME, OPPONENT, CubeState, build_tables
from nardy.ruleset import RuleSet

EVEN = build_tables(0.5, 0.0)  # an even game and no mars: the textbook cases
CUBE = RuleSet(match_length=7, doubling_cube=True)


def lookup_of(name: str, tables=EVEN):
    table = tables[name]
    return lambda away, other: table[away][other]


def test_known_entries_of_the_even_tables():
    crawford = EVEN["cube-geometric-crawford"]
    post = EVEN["cube-geometric-no-crawford"]
    plain = EVEN["no-cube"]
    # Crawford game at 1-away/2-away: the leader wins it or plays 1-away/1-away.
    assert crawford[1][2] == pytest.approx(0.75)
    # After the Crawford game the trailer doubles at once: the game decides 2-away/1-away...
    assert post[1][2] == pytest.approx(0.5)
    # ... and at 3-away the trailer must win twice.
    assert post[1][3] == pytest.approx(0.75)
    # Without the cube and without mars: the chance of 1 win before 3 losses at even odds.
    assert plain[1][3] == pytest.approx(0.875)
    for name, table in EVEN.items():
        for away in range(1, met.MAX_AWAY + 1):
            assert table[away][away] == pytest.approx(0.5), name
            for other in range(1, met.MAX_AWAY + 1):
                # With the Crawford rule, 1-away starting is the Crawford game, the other
                # starting while the leader is 1-away is past it: two states, not one.
                crawford_rule = name.startswith("cube-") and not name.endswith("no-crawford")
                if not crawford_rule or (away == 1) == (other == 1):
                    assert table[away][other] + table[other][away] == pytest.approx(1.0), name
                if other > 1:  # needing fewer points never hurts
                    assert table[away][other] >= table[away][other - 1] - 1e-12, name


def test_the_starter_and_mars_move_the_tables():
    ahead = build_tables(0.55, 0.1)
    assert ahead["cube-geometric-crawford"][7][7] > 0.5
    assert ahead["no-cube"][7][7] > 0.5
    # A mars counts 2: needing 2 is closer to needing 1 when mars is common.
    assert ahead["no-cube"][2][2] > build_tables(0.55, 0.0)["no-cube"][2][2]


def test_the_committed_table_is_rebuilt_exactly_from_its_rates():
    data = met.load()
    rebuilt = build_tables(data["starter_wins"], data["mars_share"])
    assert set(rebuilt) == set(data["tables"])
    for name, table in rebuilt.items():
        for away in range(1, met.MAX_AWAY + 1):
            for other in range(1, met.MAX_AWAY + 1):
                stored = data["tables"][name][away][other]
                assert stored == pytest.approx(table[away][other], abs=1e-5)
    provenance = data["provenance"]
    assert provenance["games"] >= 1000 and provenance["command"].startswith("python -m bench.met")
    low, high = data["starter_wins_interval"]
    assert low <= data["starter_wins"] <= high


def test_at_two_away_each_the_double_is_right_and_a_strong_position_is_a_drop():
    lookup = lookup_of("cube-geometric-crawford")
    state = CubeState(2, 2, 1, None)
    fair = decide(0.62, state, lookup, CUBE, 200, seat=0, doubled=False, dropped=False)
    assert [d.kind for d in fair] == [DOUBLE]
    assert fair[0].best == DOUBLE and fair[0].loss > 0 and fair[0].counted
    taken = decide(0.62, state, lookup, CUBE, 200, seat=0, doubled=True, dropped=True)
    assert taken[1].kind == TAKE and taken[1].seat == 1 and taken[1].best == TAKE
    assert taken[1].played == DROP and taken[1].loss > 0.16 and taken[1].mark == "blunder"
    # Above the taker's 25 % take point, a drop.
    strong = decide(0.8, state, lookup, CUBE, 200, seat=0, doubled=True, dropped=False)
    assert strong[1].best == DROP and strong[1].played == TAKE and strong[1].loss > 0


def test_an_early_double_at_the_start_of_a_long_match_is_wrong():
    lookup = lookup_of("cube-geometric-crawford")
    state = CubeState(7, 7, 1, None)
    early = decide(0.55, state, lookup, CUBE, 360, seat=1, doubled=True, dropped=False)
    assert early[0].best == NO_DOUBLE and early[0].played == DOUBLE and early[0].loss > 0
    assert early[0].counted  # a double offered always counts (GNU Backgammon)
    assert early[1].best == TAKE and early[1].loss == 0
    # Far from any double and none made: no decision for the rating.
    quiet = decide(0.5, state, lookup, CUBE, 360, seat=1, doubled=False, dropped=False)
    assert quiet[0].loss == 0 and not quiet[0].counted


def test_post_crawford_the_trailer_doubles_at_once_and_the_leader_always_takes():
    lookup = lookup_of("cube-geometric-no-crawford")
    # (At 50 % the leader's take and drop are the same: both leave an even game for the match.)
    for chance in (0.2, 0.4):
        found = decide(chance, CubeState(2, 1, 1, None), lookup, CUBE, 300, seat=0,
                       doubled=True, dropped=True)  # fmt: skip
        assert found[0].best == DOUBLE
        assert found[1].best == TAKE and found[1].played == DROP and found[1].mark == "blunder"


def test_the_owner_and_the_cube_s_value_change_the_equity():
    lookup = lookup_of("cube-geometric-crawford")
    step = met.step_of(CUBE)
    centre = met.cubeful_equity(lookup, 0.6, CubeState(5, 5, 1, None), step, 0.68)
    mine = met.cubeful_equity(lookup, 0.6, CubeState(5, 5, 1, ME), step, 0.68)
    theirs = met.cubeful_equity(lookup, 0.6, CubeState(5, 5, 1, OPPONENT), step, 0.68)
    assert theirs < centre < mine


def test_a_game_s_cube_history_gives_its_decisions():
    board = tuple([0] * 11 + [-15] + [0] * 11 + [15])
    moments = [
        CubeMoment(board, "w", 0, 360, 2),  # White doubled before its roll; Black took
        CubeMoment(board, "b", 1, 360, 0),  # Black owns the cube and did not redouble
        CubeMoment(board, "w", 0, 350, 0),  # White cannot double: the cube is Black's
    ]
    found = game_cube_decisions(moments, [0.5, 0.5, 0.5], CUBE, score=(0, 0),
                                crawford_game=False, past_crawford=False)  # fmt: skip
    assert [(index, d.kind, d.seat, d.played) for index, d in found] == [
        (0, DOUBLE, 0, DOUBLE), (0, TAKE, 1, TAKE), (1, DOUBLE, 1, NO_DOUBLE),
    ]  # fmt: skip
    assert found[2][1].cube == 2
    # Black redoubles instead and White drops: the game's end holds both decisions.
    dropped = game_cube_decisions(
        moments[:1], [0.5], CUBE, score=(0, 0), crawford_game=False, past_crawford=False,
        dropped=moments[1], dropped_chance=0.6,
    )  # fmt: skip
    assert [(i, d.kind, d.seat, d.played) for i, d in dropped][2:] == [
        (1, DOUBLE, 1, DOUBLE), (1, TAKE, 0, DROP),
    ]  # fmt: skip
    # No decision in the Crawford game, nor in a match without the cube.
    assert game_cube_decisions(moments, [0.5] * 3, CUBE, score=(6, 0), crawford_game=True,
                               past_crawford=False) == []  # fmt: skip
    assert game_cube_decisions(moments, [0.5] * 3, RuleSet(match_length=7), score=(0, 0),
                               crawford_game=False, past_crawford=False) == []  # fmt: skip


@pytest.mark.parametrize(
    "chance, state",
    [
        (1.5, (2, 2, 1, None)), (-0.1, (2, 2, 1, None)), (math.nan, (2, 2, 1, None)),
        ("0.5", (2, 2, 1, None)), (0.5, (0, 2, 1, None)), (0.5, (2, 99, 1, None)),
        (0.5, (2, 2, 0, None)), (0.5, (2, 2, 128, None)), (0.5, (2, 2, 1, "nobody")),
        (0.5, (2.0, 2, 1, None)), (0.5, (2, 2, [1], None)),
    ],
)  # fmt: skip
def test_bad_input_is_refused_with_a_clear_error(chance, state):
    lookup = lookup_of("cube-geometric-crawford")
    with pytest.raises(ValueError):
        decide(chance, CubeState(*state), lookup, CUBE, 200, seat=0, doubled=False, dropped=False)
