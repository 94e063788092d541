"""Applying a rated match once, whatever ends it, and reverting it exactly (ratings/services.py)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import User
from games import services as game_services
from ratings import elo
from ratings.models import PeriodWins, Rating, RatingChange
from ratings.services import period_starts, rating_apply_match, rating_revert_match
from tests.factories import make_user
from tests.match_channel import MatchChannel
from tests.ratings.conftest import finished_match, play_rated
from tests.threads import run_together


def state(user) -> tuple:
    row = Rating.objects.get(user=user)
    return (row.rating, row.experience, row.matches, row.wins, row.peak, row.value)


def period_rows(user) -> set[tuple]:
    return set(
        PeriodWins.objects.filter(user=user).values_list("period", "starts_on", "wins", "matches")
    )


def test_a_rated_match_moves_both_players_and_writes_history(two_players):
    anna, boris = two_players
    match = play_rated(anna, boris, length=3)
    # Both new (K 5), equal ratings, 3 points: 4 · 5 · √3 · ½ = 17.3205.
    assert state(anna)[:4] == (Decimal("1517.3205"), 3, 1, 1)
    assert state(boris)[:4] == (Decimal("1482.6795"), 3, 1, 0)
    assert state(anna)[4:] == (Decimal("1517.3205"), 1517)  # peak; the whole number shown
    won = RatingChange.objects.get(user=anna, match=match)
    assert (won.before, won.after, won.delta, won.length, won.won) == (
        Decimal(1500),
        Decimal("1517.3205"),
        Decimal("17.3205"),
        3,
        True,
    )
    assert (won.opponent, won.opponent_rating) == (boris, Decimal(1500))
    lost = RatingChange.objects.get(user=boris, match=match)
    assert (lost.delta, lost.won, lost.opponent, lost.shown_delta) == (
        Decimal("-17.3205"),
        False,
        anna,
        -17,
    )
    week, month = period_starts(won.created_at).values()
    assert period_rows(anna) == {("week", week, 1, 1), ("month", month, 1, 1)}
    assert period_rows(boris) == {("week", week, 0, 1), ("month", month, 0, 1)}


def test_applying_twice_changes_nothing(two_players):
    anna, boris = two_players
    match = play_rated(anna, boris)
    before = (state(anna), state(boris), period_rows(anna), RatingChange.objects.count())
    again = rating_apply_match(match=match, winner_id=anna.pk, loser_id=boris.pk)
    assert again[anna.pk] == {"before": 1500, "after": 1510, "delta": 10}
    assert (state(anna), state(boris), period_rows(anna), RatingChange.objects.count()) == before


@pytest.mark.parametrize("left_table", [False, True])
def test_resigning_or_leaving_applies_the_rating_once_and_tells_the_table(
    two_players, left_table, fixed_dice, django_capture_on_commit_callbacks
):
    anna, boris = two_players
    match = game_services.match_create(creator=anna, length=5)
    fixed_dice(6, 2)
    game_services.match_accept(user=boris, match_id=match.pk)
    channel = MatchChannel(match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.match_resign(user=boris, match_id=match.pk, left_table=left_table)
    assert RatingChange.objects.filter(match=match).count() == 2
    # New players, equal ratings, 5 points: 4 · 5 · √5 · ½ = 22.3607.
    assert state(anna)[0] == Decimal("1522.3607")
    [over] = [event for event in channel.events() if event["kind"] == "match_over"]
    assert over["detail"]["rating_changes"] == [
        {"before": 1500, "after": 1522, "delta": 22},
        {"before": 1500, "after": 1478, "delta": -22},
    ]
    players = {player["seat"]: player["rating"] for player in over["state"]["match"]["players"]}
    assert players == {0: 1522, 1: 1478}


def test_a_casual_match_moves_no_rating(two_players, fixed_dice):
    anna, boris = two_players
    match = game_services.match_create(creator=anna, rated=False)
    fixed_dice(6, 2)
    game_services.match_accept(user=boris, match_id=match.pk)
    game_services.match_resign(user=boris, match_id=match.pk)
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_same_match_end_from_several_threads_applies_once():
    anna, boris = make_user("t_anna"), make_user("t_boris")
    match = finished_match(anna, boris, length=7)

    def apply() -> None:
        rating_apply_match(match=match, winner_id=anna.pk, loser_id=boris.pk)

    run_together(*[apply] * 6)
    assert RatingChange.objects.filter(match=match).count() == 2
    # New players, equal ratings, 7 points: 4 · 5 · √7 · ½ = 26.4575.
    assert state(anna)[:4] == (Decimal("1526.4575"), 7, 1, 1)
    assert state(boris)[:4] == (Decimal("1473.5425"), 7, 1, 0)
    assert PeriodWins.objects.filter(user=anna, period="week").get().matches == 1


def both_end_at_once(anna: User, boris: User) -> None:
    """Two finished matches of the pair, in opposite seats, each won by its creator, applied at
    once from two threads."""
    first, second = finished_match(anna, boris), finished_match(boris, anna)
    run_together(
        lambda: rating_apply_match(match=first, winner_id=anna.pk, loser_id=boris.pk),
        lambda: rating_apply_match(match=second, winner_id=boris.pk, loser_id=anna.pk),
    )


@pytest.mark.django_db(transaction=True)
def test_two_matches_of_the_same_players_ending_at_once_both_count():
    anna, boris = make_user("c_anna"), make_user("c_boris")
    both_end_at_once(anna, boris)
    assert RatingChange.objects.count() == 4
    assert state(anna)[1:4] == (2, 2, 1) and state(boris)[1:4] == (2, 2, 1)
    # Whatever the order, the sum of both ratings moved by the two K-5 figures' difference only.
    total = state(anna)[0] + state(boris)[0]
    assert total == sum(RatingChange.objects.values_list("delta", flat=True)) + 3000


@pytest.mark.django_db(transaction=True)
def test_new_players_two_matches_ending_at_once_never_deadlock():
    # Both players' Rating rows are created by whichever match ends first; two matches naming
    # them in opposite orders must still insert them in one order. The test above only sometimes
    # hits this race; 80 fresh pairs hit it on every run when the inserts followed the callers'
    # order.
    for pair in range(80):
        anna, boris = make_user(f"n{pair}_anna"), make_user(f"n{pair}_boris")
        both_end_at_once(anna, boris)
        assert state(anna)[1:4] == state(boris)[1:4] == (2, 2, 1)


def test_revert_restores_both_players_exactly(two_players):
    anna, boris = two_players
    before = (state(anna), state(boris)) if Rating.objects.exists() else None
    match = play_rated(anna, boris, length=5)
    assert rating_revert_match(match_id=match.pk) == 2
    initial = (Decimal(1500), 0, 0, 0, Decimal(1500), 1500)
    assert state(anna) == state(boris) == initial
    assert before is None
    assert {row[2:] for row in period_rows(anna) | period_rows(boris)} == {(0, 0)}
    assert RatingChange.objects.filter(match=match, reverted_at__isnull=False).count() == 2
    assert Rating.objects.get(user=anna).last_rated_at is None


def test_revert_after_later_matches_takes_back_only_the_annulled_deltas(two_players):
    anna, boris = two_players
    carl = make_user("carl")
    annulled = play_rated(anna, boris, length=3)
    play_rated(boris, carl, length=5)
    play_rated(carl, anna, length=1)
    play_rated(anna, carl, length=7)
    now = {user.pk: state(user) for user in (anna, boris, carl)}
    deltas = dict(RatingChange.objects.filter(match=annulled).values_list("user_id", "delta"))

    assert rating_revert_match(match_id=annulled.pk) == 2

    # Later changes are not recomputed: each loses exactly the annulled delta and its length.
    anna_now, boris_now = state(anna), state(boris)
    assert anna_now[0] == now[anna.pk][0] - deltas[anna.pk]
    assert boris_now[0] == now[boris.pk][0] - deltas[boris.pk]
    assert (anna_now[1], anna_now[2], anna_now[3]) == (now[anna.pk][1] - 3, 2, 1)
    assert (boris_now[1], boris_now[2], boris_now[3]) == (now[boris.pk][1] - 3, 1, 1)
    assert state(carl) == now[carl.pk]
    # Anna's peak was the annulled win: it falls back to the best rating her kept history shows.
    kept = RatingChange.objects.filter(user=anna, reverted_at__isnull=True)
    assert anna_now[4] == max([Decimal(1500), anna_now[0], *kept.values_list("after", flat=True)])


def test_revert_twice_and_apply_after_revert_change_nothing(two_players):
    anna, boris = two_players
    match = play_rated(anna, boris)
    rating_revert_match(match_id=match.pk)
    after_revert = (state(anna), state(boris), period_rows(anna))
    assert rating_revert_match(match_id=match.pk) == 0
    assert rating_apply_match(match=match, winner_id=anna.pk, loser_id=boris.pk) == {}
    assert (state(anna), state(boris), period_rows(anna)) == after_revert


def test_revert_of_an_unrated_or_unknown_match_changes_nothing(two_players):
    anna, boris = two_players
    casual = finished_match(anna, boris, rated=False)
    assert rating_revert_match(match_id=casual.pk) == 0
    assert rating_revert_match(match_id=10**9) == 0
    assert not Rating.objects.exists()


def test_revert_takes_the_win_back_from_the_week_it_was_won(two_players):
    anna, boris = two_players
    long_ago = timezone.now() - datetime.timedelta(days=40)
    match = play_rated(anna, boris, finished_at=long_ago)
    play_rated(anna, boris)  # this week
    rating_revert_match(match_id=match.pk)
    this_week = period_starts(timezone.now())["week"]
    old_week = period_starts(long_ago)["week"]
    wins = dict(
        PeriodWins.objects.filter(user=anna, period="week").values_list("starts_on", "wins")
    )
    assert wins == {this_week: 1, old_week: 0}
    assert Rating.objects.get(user=anna).last_rated_at > long_ago


def test_provisional_until_fifty_points_of_experience(two_players):
    anna, boris = two_players
    for _ in range(7):
        play_rated(anna, boris, length=7)
    assert Rating.objects.get(user=anna).provisional  # 49
    play_rated(boris, anna, length=1)
    assert not Rating.objects.get(user=anna).provisional  # 50
    assert elo.PROVISIONAL_EXPERIENCE == 50


@pytest.fixture
def fixed_dice(settings):
    from games.dice import push_test_dice

    settings.DEBUG = True
    settings.NARDY_TEST_DICE = True
    push_test_dice()
    yield push_test_dice
    push_test_dice()
