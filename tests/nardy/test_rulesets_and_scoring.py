"""Rule sets as data, scoring, matches and the opening roll (docs/rules.md)."""

from __future__ import annotations

import pytest

from nardy import (
    START_BOARD,
    TOURNAMENT,
    TRADITIONAL,
    MatchScore,
    RuleSet,
    add_game,
    board_from_points,
    choose_turn,
    first_turn_dice,
    game_result,
    legal_turns,
    new_match,
    next_game_starter,
    opening_winner,
    resign,
    rule_set,
    winner_of,
)


def test_presets() -> None:
    assert TRADITIONAL == RuleSet("end_of_turn", "classic", "reroll", True, 1)
    assert TOURNAMENT == RuleSet("every_step", "classic", "reroll", False, 5)
    assert TRADITIONAL.doubling_cube is False


def test_rule_set_by_name_with_overrides() -> None:
    rules = rule_set("tournament", match_length=7, head_exception="generalised")
    assert (rules.six_block, rules.match_length, rules.head_exception) == (
        "every_step",
        7,
        "generalised",
    )
    assert rule_set() == TRADITIONAL


@pytest.mark.parametrize(
    "overrides",
    [
        {"six_block": "sometimes"},
        {"head_exception": "none"},
        {"opening": "toss"},
        {"undo_allowed": "yes"},
        {"match_length": 2},
        {"doubling_cube": True},
        {"colour": "red"},
    ],
)
def test_bad_rule_set_values_raise_value_error(overrides) -> None:
    with pytest.raises(ValueError):
        rule_set("traditional", **overrides)


def test_unknown_preset_name() -> None:
    with pytest.raises(ValueError, match="unknown rule set"):
        rule_set("blitz")


def test_rule_sets_are_immutable() -> None:
    with pytest.raises(AttributeError):
        TRADITIONAL.six_block = "every_step"  # type: ignore[misc]


def test_winner_oin_and_mars() -> None:
    assert winner_of(START_BOARD) is None and game_result(START_BOARD) is None
    oin = board_from_points({}, {1: 14})
    assert game_result(oin) == ("w", 1)
    mars = board_from_points({}, {24: 15})
    assert game_result(mars) == ("w", 2)
    black_wins = board_from_points({3: 2}, {})
    assert game_result(black_wins) == ("b", 1)


def test_match_score_to_length() -> None:
    score = new_match(rule_set("tournament"))
    assert score.length == 5 and not score.is_over
    score = add_game(score, 0, 2)
    score = add_game(score, 1, 1)
    score = add_game(score, 0, 2)
    assert score.points == (4, 1) and not score.is_over
    score = add_game(score, 0, 1)
    assert score.is_over and score.winner == 0
    with pytest.raises(ValueError):
        add_game(score, 1, 1)


def test_one_point_match_ends_after_one_game() -> None:
    score = add_game(new_match(TRADITIONAL), 1, 1)
    assert score.is_over and score.winner == 1


def test_resigning_loses_the_whole_match() -> None:
    score = add_game(MatchScore(7), 0, 2)
    score = resign(score, 0)
    assert score.is_over and score.winner == 1


def test_bad_game_points_and_lengths() -> None:
    for points in (0, 65, True):
        with pytest.raises(ValueError):
            add_game(MatchScore(3), 0, points)
    with pytest.raises(ValueError):
        MatchScore(4)


def test_opening_roll() -> None:
    assert opening_winner(5, 3) == 0
    assert opening_winner(2, 6) == 1
    assert opening_winner(4, 4) is None
    with pytest.raises(ValueError):
        opening_winner(0, 3)


def test_first_turn_dice_by_opening_mode() -> None:
    assert first_turn_dice(rule_set(opening="play_roll"), (5, 3)) == (5, 3)
    assert first_turn_dice(TRADITIONAL, (5, 3)) is None
    with pytest.raises(ValueError):
        first_turn_dice(TRADITIONAL, (4, 4))


def test_previous_winner_starts_the_next_game() -> None:
    assert next_game_starter(1) == 1


def test_choose_turn_is_legal_and_deterministic() -> None:
    for dice in [(6, 5), (3, 3), (2, 1)]:
        chosen = choose_turn(START_BOARD, "w", dice, True, TRADITIONAL)
        assert chosen == choose_turn(START_BOARD, "w", dice, True, TRADITIONAL)
        assert any(
            chosen in seqs
            for seqs in legal_turns(START_BOARD, "w", dice, True, TRADITIONAL).values()
        )


def test_choose_turn_passes_with_an_empty_sequence() -> None:
    board = board_from_points({24: 15}, {24: 14, 6: 1})
    assert choose_turn(board, "w", (6, 6), False, TRADITIONAL) == ()
