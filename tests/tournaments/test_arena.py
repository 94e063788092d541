"""Arena scoring and pairing as pure functions (tournaments/arena.py, docs/rules.md "Arena
tournaments"): streaks, aborts, matches left unplayed, the pause of an absent loser, performance
tie-breaks, the last-minute rule, closest score and rating, rematch avoidance, blocked pairs, the
wait and the cap between two players' meetings, the match rate, the moderators' flag."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.pure_modules import django_modules_loaded_by
from tournaments.arena import (
    FLAG_MEETINGS,
    FLAG_UNPLAYED,
    MATCHES_PER_MINUTE,
    MEETING_WAIT,
    MEETINGS_PER_ARENA,
    PLAYED_TURNS,
    Free,
    Met,
    Played,
    Result,
    Standing,
    finished_results,
    flagged,
    is_rematch,
    may_meet,
    may_pair,
    over_rate,
    pair_free,
    paused_after,
    rank,
    score,
)

W, L, N = Result.WIN, Result.LOSS, Result.NONE


def results(*kinds: Result, rating: float = 1500) -> list[Played]:
    return [Played(kind, rating) for kind in kinds]


@pytest.mark.parametrize(
    ("played", "points", "sheet", "streak", "on_fire"),
    [
        ((), 0, (), 0, False),
        ((W,), 2, (2,), 1, False),
        ((W, W), 4, (2, 2), 2, True),
        ((W, W, W), 8, (2, 2, 4), 3, True),
        ((W, W, W, W), 12, (2, 2, 4, 4), 4, True),
        ((W, W, W, L, W), 10, (2, 2, 4, 0, 2), 1, False),
        ((W, W, L, W, W, W), 12, (2, 2, 0, 2, 2, 4), 3, True),
        ((L, L, W), 2, (0, 0, 2), 1, False),
        # The opponent's abort: no result, the streak goes on.
        ((W, W, N, W), 8, (2, 2, 4), 3, True),
        ((N, N), 0, (), 0, False),
    ],
)
def test_a_win_scores_2_and_double_after_two_wins_in_a_row_until_a_loss(
    played, points, sheet, streak, on_fire
):
    got = score(results(*played))
    assert (got.points, got.sheet, got.streak, got.on_fire) == (points, sheet, streak, on_fire)
    assert got.wins == played.count(W) and got.losses == played.count(L)


@pytest.mark.parametrize(
    ("played", "expected"),
    [
        ([Played(W, 1600)], 2000.0),
        ([Played(L, 1600)], 1200.0),
        ([Played(W, 1500), Played(L, 1700)], (1900 + 1300) / 2),
        ([Played(N, 2500)], None),  # an abort is not a result
    ],
)
def test_performance_is_the_average_opponent_rating_plus_or_minus_400(played, expected):
    assert score(played).performance == expected


def test_ties_go_to_the_better_performance_then_the_earlier_joiner():
    rows = [
        Standing(1, 6, 1700.0, joined_order=0),
        Standing(2, 6, 1900.0, joined_order=1),
        Standing(3, 8, 1400.0, joined_order=2),
        Standing(4, 6, 1700.0, joined_order=3),
        Standing(5, 0, None, joined_order=4),
        Standing(6, 40, 2400.0, joined_order=5, struck_out=True),
    ]
    placed = [(place, row.user_id) for place, row in rank(rows)]
    assert placed == [(1, 3), (2, 2), (3, 1), (4, 4), (5, 5), (None, 6)]


START = datetime(2026, 1, 1, 18, 0, tzinfo=UTC)
END = START + timedelta(minutes=30)


@pytest.mark.parametrize(
    ("now", "allowed"),
    [
        (START - timedelta(seconds=1), False),
        (START, True),
        (END - timedelta(seconds=61), True),
        (END - timedelta(seconds=60), False),  # the last minute: no new match
        (END - timedelta(seconds=1), False),
        (END, False),
    ],
)
def test_no_new_match_before_the_start_or_in_the_last_minute(now, allowed):
    assert may_pair(now, starts_at=START, ends_at=END) is allowed


def pairs_of(pairings) -> set[frozenset[int]]:
    return {frozenset((p.first.user_id, p.second.user_id)) for p in pairings}


def test_closest_score_first_then_rating():
    free = [Free(1, 10, 1500), Free(2, 10, 1900), Free(3, 0, 1510), Free(4, 0, 1200)]
    assert pairs_of(pair_free(free)) == {frozenset((1, 2)), frozenset((3, 4))}


def test_equal_scores_pair_the_closest_ratings():
    free = [Free(1, 4, 1500), Free(2, 4, 1800), Free(3, 4, 1520), Free(4, 4, 1790)]
    assert pairs_of(pair_free(free)) == {frozenset((1, 3)), frozenset((2, 4))}


def test_the_last_opponent_is_avoided_when_anyone_else_is_free():
    free = [Free(1, 4, 1500, last_opponent=2), Free(2, 4, 1501, last_opponent=1), Free(3, 0, 900)]
    (pairing,) = pair_free(free)
    assert 3 in (pairing.first.user_id, pairing.second.user_id)


def test_last_opponents_play_again_when_nobody_else_is_free():
    free = [Free(1, 4, 1500, last_opponent=2), Free(2, 2, 1400, last_opponent=1)]
    assert pairs_of(pair_free(free)) == {frozenset((1, 2))}


def test_a_rematch_the_greedy_choice_made_is_swapped_away():
    # 1-3 is the closest pair; greedily 2-4 would be last opponents. Swapping gives 1-4, 2-3
    # (or 1-2, 3-4), with no rematch.
    free = [
        Free(1, 4, 1500), Free(3, 4, 1501),
        Free(2, 4, 1600, last_opponent=4), Free(4, 4, 1610, last_opponent=2),
    ]  # fmt: skip
    made = pair_free(free)
    assert len(made) == 2
    assert not any(is_rematch(p.first, p.second) for p in made)


def test_blocked_players_are_never_paired():
    free = [Free(1, 0, 1500), Free(2, 0, 1500), Free(3, 0, 1700)]
    made = pair_free(free, blocked=lambda a, b: {a, b} == {1, 2})
    assert frozenset((1, 2)) not in pairs_of(made)
    assert len(made) == 1


def test_the_higher_in_the_standings_is_first():
    (pairing,) = pair_free([Free(1, 0, 1500), Free(2, 6, 1400)])
    assert pairing.first.user_id == 2


frees = st.lists(
    st.builds(
        Free,
        user_id=st.integers(1, 60),
        points=st.integers(0, 40),
        rating=st.floats(800, 2400),
        last_opponent=st.one_of(st.none(), st.integers(1, 60)),
    ),
    max_size=40,
    unique_by=lambda free: free.user_id,
)


@given(frees)
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_everyone_free_is_paired_at_most_once_and_at_most_one_is_left(free):
    made = pair_free(free)
    seated = [p.user_id for pairing in made for p in (pairing.first, pairing.second)]
    assert len(seated) == len(set(seated))
    assert len(free) - len(seated) <= 1  # nobody blocks anyone: all but an odd one out play


@given(frees)
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_rematch_is_made_only_when_its_players_had_nobody_else(free):
    made = pair_free(free)
    seated = {p.user_id for pairing in made for p in (pairing.first, pairing.second)}
    left = [p for p in free if p.user_id not in seated]
    for pairing in made:
        if is_rematch(pairing.first, pairing.second):
            # Nobody left over could have played either of them instead.
            for spare in left:
                assert is_rematch(spare, pairing.first) and is_rematch(spare, pairing.second)


@pytest.mark.parametrize(
    ("first_won", "loser_turns", "expected"),
    [
        (True, PLAYED_TURNS, (W, L)),
        (False, PLAYED_TURNS + 20, (L, W)),
        # Left without playing (resigned at once, to the clock, to a claim): a loss for the one
        # who left, nothing for the winner, as an abort (docs/rules.md "Arena tournaments", 3).
        (True, PLAYED_TURNS - 1, (N, L)),
        (False, 0, (L, N)),
    ],
)
def test_a_match_its_loser_left_without_playing_is_no_win(first_won, loser_turns, expected):
    assert finished_results(first_won=first_won, loser_turns=loser_turns) == expected


def test_a_farmed_streak_scores_nothing():
    farmed = [Played(result, 1500) for result in finished_results(first_won=True, loser_turns=0)]
    assert score(farmed[:1] * 400).points == 0


@pytest.mark.parametrize(
    ("abandoned", "by_clock", "loser_turns", "paused"),
    [
        (True, False, 0, True),  # claimed: gone from the table
        (True, False, 30, True),
        (False, True, 0, True),  # the clock, never a turn of their own: never opened it
        (False, True, 1, False),  # the clock after playing: a slow player, not an absent one
        (False, False, 0, False),  # resigned at once: there to resign
    ],
)
def test_an_absent_loser_is_paused(abandoned, by_clock, loser_turns, paused):
    assert paused_after(abandoned=abandoned, by_clock=by_clock, loser_turns=loser_turns) is paused


def test_two_players_meet_again_only_after_the_wait_and_at_most_so_many_times():
    now = datetime(2026, 1, 1, 12, tzinfo=UTC)
    assert may_meet(None, now)
    assert not may_meet(Met(1, now - MEETING_WAIT + timedelta(seconds=1)), now)
    assert may_meet(Met(1, now - MEETING_WAIT), now)
    assert may_meet(Met(MEETINGS_PER_ARENA - 1, now - timedelta(hours=1)), now)
    assert not may_meet(Met(MEETINGS_PER_ARENA, now - timedelta(hours=1)), now)
    assert not may_meet(Met(10**6, now - timedelta(days=1)), now)


def test_the_match_rate():
    assert not over_rate(0) and not over_rate(MATCHES_PER_MINUTE - 1)
    assert over_rate(MATCHES_PER_MINUTE) and over_rate(10**6)


def test_the_moderators_flag():
    now = datetime(2026, 1, 1, 12, tzinfo=UTC)
    assert not flagged(Met(FLAG_MEETINGS - 1, now, FLAG_UNPLAYED - 1))
    assert flagged(Met(FLAG_MEETINGS, now))
    assert flagged(Met(1, now, FLAG_UNPLAYED))


@pytest.mark.integration  # starts a process
def test_the_arena_needs_no_django():
    assert django_modules_loaded_by("tournaments.arena") == []
