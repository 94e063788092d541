"""The pairing rules as pure functions (pairing/logic.py): closest ratings first, a window that
widens with the time waited, the 400-point confirmation, blocked pairs never paired."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.logic import (
    CONFIRM_GAP,
    Waiting,
    acceptable,
    needs_confirmation,
    pair_up,
    window,
)
from tests.pure_modules import django_modules_loaded_by


def ids(pairs) -> set[frozenset[int]]:
    return {frozenset((pair.first.user_id, pair.second.user_id)) for pair in pairs}


@pytest.mark.parametrize(
    ("waited", "expected"),
    [(0, 100), (-3, 100), (15, 250), (30, 400), (30.01, None), (600, None)],
)
def test_window_widens_from_100_to_400_over_30_seconds_then_has_no_limit(waited, expected):
    assert window(waited) == expected


def test_closest_ratings_are_paired_first():
    players = [Waiting(1, 1500, 0), Waiting(2, 1560, 0), Waiting(3, 1590, 0), Waiting(4, 1680, 0)]
    # 2-3 (30) is the closest; then 1 and 4 are 180 apart: outside ±100 at once.
    assert ids(pair_up(players)) == {frozenset((2, 3))}


def test_the_longer_wait_decides_nothing_alone_both_windows_must_accept():
    long_wait, new = Waiting(1, 1500, 29), Waiting(2, 1750, 0)
    assert not acceptable(long_wait, new)  # 250 > the newcomer's ±100
    assert acceptable(long_wait, Waiting(2, 1750, 15))  # both windows reach 250
    assert pair_up([long_wait, Waiting(2, 1750, 15)])[0].first.user_id == 1  # the longer wait first


def test_a_far_pair_is_made_once_both_have_waited_past_the_widening():
    players = [Waiting(1, 1200, 31), Waiting(2, 2000, 31)]
    (pair,) = pair_up(players)
    assert pair.gap == 800
    assert pair.needs_confirmation


def test_the_400_point_rule_is_inclusive():
    assert needs_confirmation(1500, 1500 + CONFIRM_GAP)
    assert not needs_confirmation(1500, 1500 + CONFIRM_GAP - 1)
    (pair,) = pair_up([Waiting(1, 1500, 30), Waiting(2, 1900, 30)])  # 400 exactly at ±400
    assert pair.needs_confirmation
    (pair,) = pair_up([Waiting(1, 1500, 30), Waiting(2, 1899, 30)])
    assert not pair.needs_confirmation


def test_blocked_pairs_are_never_paired_and_the_next_closest_is_taken():
    players = [Waiting(1, 1500, 0), Waiting(2, 1510, 0), Waiting(3, 1530, 0)]

    def blocked(first: int, second: int) -> bool:
        return {first, second} == {1, 2}

    assert ids(pair_up(players, blocked)) == {frozenset((2, 3))}  # 20 apart; 1 waits
    assert ids(pair_up(players)) == {frozenset((1, 2))}


def test_the_blocked_predicate_is_asked_in_either_order_it_may_be_one_sided():
    calls: list[tuple[int, int]] = []

    def blocked(first: int, second: int) -> bool:
        calls.append((first, second))
        return False

    pair_up([Waiting(7, 1500, 0), Waiting(3, 1500, 0)], blocked)
    assert calls and all({first, second} == {3, 7} for first, second in calls)


def test_equal_gaps_go_to_the_pair_that_waited_longer():
    players = [Waiting(1, 1500, 1), Waiting(2, 1550, 20), Waiting(3, 1600, 25)]
    # 1-2 and 2-3 are both 50 apart; 2-3 has waited 45 s in total, 1-2 only 21 s.
    assert ids(pair_up(players)) == {frozenset((2, 3))}


def test_nobody_is_paired_with_themselves_or_twice():
    assert pair_up([Waiting(1, 1500, 50)]) == []
    assert pair_up([Waiting(1, 1500, 50), Waiting(1, 1500, 50)]) == []


@given(
    st.lists(st.tuples(st.floats(800, 2400), st.floats(0, 90)), min_size=0, max_size=40),
    st.sets(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=30),
)
# Generating 40 players took 1.6 s on two cores under a load of 20 (the health check's limit
# is 1 s): what is tested is the pairing, not how fast inputs are drawn.
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_pair_is_acceptable_and_every_player_is_in_at_most_one(players, blocked_pairs):
    waiting = [Waiting(index, rating, waited) for index, (rating, waited) in enumerate(players)]
    blocked_set = {frozenset(pair) for pair in blocked_pairs}

    def blocked(first: int, second: int) -> bool:
        return frozenset((first, second)) in blocked_set

    pairs = pair_up(waiting, blocked)
    seen = [player for pair in pairs for player in (pair.first.user_id, pair.second.user_id)]
    assert len(seen) == len(set(seen))
    for pair in pairs:
        assert acceptable(pair.first, pair.second, blocked)
        assert pair.first.waited >= pair.second.waited
    # Maximal: no two unpaired players could still have been paired.
    left = [player for player in waiting if player.user_id not in set(seen)]
    for index, player in enumerate(left):
        for other in left[index + 1 :]:
            assert not acceptable(player, other, blocked)


@pytest.mark.integration  # starts a process
def test_the_logic_needs_no_django():
    assert django_modules_loaded_by("pairing.logic") == []


def test_pool_keys_are_one_spelling_of_known_values_and_never_change():
    from pairing.pools import TILES, Pool, PoolKeyError

    # Stored in Redis and in the metrics' labels: these spellings must stay.
    assert Pool("traditional", 1, 60, True).key == "traditional.1.60.rated"
    assert Pool("tournament", 5, 90, False).key == "tournament.5.90.casual"
    for tile in TILES:
        assert Pool.from_key(tile.key) == tile
    for bad in ["traditional.01.60.rated", "traditional.1.60", "traditional.9.60.rated",
                "traditional.1.61.rated", "x.1.60.rated", "traditional.1.60.ranked",
                "traditional.１.60.rated", "", None, 5, ["traditional"], "t" * 41]:  # fmt: skip
        with pytest.raises(PoolKeyError):
            Pool.from_key(bad)
