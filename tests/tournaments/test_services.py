"""Tournament services on PostgreSQL and Redis (docs/rules.md "Arena tournaments"): joining and
every refusal, pairing at once and again after each match, scoring with streaks and aborts,
the last minute, withdraw and pause, start and finish on the clock, places, races."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import Match, MatchStatus
from moderation.models import Block
from realtime.errors import CommandError
from tests.factories import make_user
from tests.threads import run_together
from tests.tournaments.conftest import after_the_waits, arena, play_turns, rated
from tournaments.arena import Played, Result, score
from tournaments.models import Pairing, Player, Status, Tournament
from tournaments.selectors import standings
from tournaments.services.clock import series_schedule, tournament_finish, tournament_start
from tournaments.services.pairing import tournament_match_score, tournament_pair
from tournaments.services.players import (
    tournament_create,
    tournament_join,
    tournament_pause,
    tournament_withdraw,
)

pytestmark = pytest.mark.django_db(transaction=True)


def join_all(tournament, users) -> None:
    for user in users:
        tournament_join(user=user, tournament_id=tournament.pk)


def match_of(user) -> Match:
    return Match.objects.get(
        tournament_pairing__isnull=False, status=MatchStatus.ACTIVE,
        pk=Player.objects.get(user=user).playing_id,
    )  # fmt: skip


def resign(loser, *, played: bool = True) -> Match:
    """The loser resigns their arena match, after both played enough turns for it to count
    (docs/rules.md "Arena tournaments", item 3) unless `played` is False."""
    match = match_of(loser)
    if played:
        play_turns(match.pk)
    game_services.match_resign(user=loser, match_id=match.pk)
    return match


def player(user) -> Player:
    return Player.objects.get(user=user)


def test_joining_pairs_free_players_at_once(players):
    tournament = arena()
    join_all(tournament, players)
    assert Pairing.objects.count() == 2
    assert all(player(user).playing_id for user in players)
    match = match_of(players[0])
    assert (match.rated, match.length, match.turn_seconds) == (True, 1, 60)


def test_a_finished_match_scores_and_pairs_its_players_again(players):
    tournament = arena()
    join_all(tournament, players[:2])
    first, second = players[:2]
    match = resign(second)
    assert (player(first).points, player(second).points) == (2, 0)
    assert Pairing.objects.get(match=match).scored_at is not None
    assert tournament_match_score(match_id=match.pk) is None  # counted once
    # Last opponents, nobody else free: they play again once the wait between meetings is over.
    assert player(first).playing_id is None
    assert after_the_waits(tournament) == 1
    assert player(first).playing_id and player(first).playing_id != match.pk


def test_the_streak_doubles_the_third_win_and_a_loss_ends_it():
    winner, other = rated("winner"), rated("other")
    tournament = arena()
    join_all(tournament, [winner, other])
    for _ in range(3):
        resign(other)
        after_the_waits(tournament)
    assert player(winner).points == 2 + 2 + 4
    resign(winner)
    assert (player(winner).points, player(winner).streak, player(other).points) == (8, 0, 2)


def test_the_last_opponent_is_avoided_when_someone_else_is_free(players):
    a, b, c, d = players
    tournament = arena()
    join_all(tournament, [a, b])
    tournament_pause(user=a, tournament_id=tournament.pk, pause=True)
    resign(b)  # a is paused: a's next match waits
    tournament_join(user=c, tournament_id=tournament.pk)  # b and c free: b plays c
    assert {match_of(c).creator_id, match_of(c).opponent_id} == {b.pk, c.pk}
    tournament_pause(user=a, tournament_id=tournament.pk, pause=False)
    tournament_join(user=d, tournament_id=tournament.pk)
    assert {match_of(a).creator_id, match_of(a).opponent_id} == {a.pk, d.pk}


def test_an_abort_is_a_loss_for_the_aborter_and_nothing_for_the_other(players):
    a, b = players[:2]
    tournament = arena()
    join_all(tournament, [a, b])
    resign(b)  # a streak of 1 for a
    after_the_waits(tournament)
    match = match_of(a)
    game_services.match_abort(user=b, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ABORTED
    assert (player(a).points, player(a).streak, player(a).wins) == (2, 1, 1)
    assert (player(b).points, player(b).losses) == (0, 2)


def test_nobody_is_paired_in_the_last_minute(players):
    tournament = arena(minutes=2)  # started a minute ago: 60 s left
    Tournament.objects.filter(pk=tournament.pk).update(
        ends_at=timezone.now() + timedelta(seconds=59)
    )
    join_all(tournament, players)
    assert not Pairing.objects.exists()


def test_a_match_in_play_at_the_end_counts_when_it_finishes(players):
    a, b = players[:2]
    tournament = arena()
    join_all(tournament, [a, b])
    match = match_of(a)
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now())
    assert tournament_finish(tournament_id=tournament.pk)
    assert Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED
    play_turns(match.pk)
    game_services.match_resign(user=b, match_id=match.pk)
    assert player(a).points == 2 and player(a).final_place == 1
    assert Pairing.objects.count() == 1  # no new match after the end


def test_start_is_on_time_and_once(players):
    tournament = arena(running=False)
    join_all(tournament, players)
    assert not Pairing.objects.exists()  # joined early: nobody plays before the start
    assert not tournament_start(tournament_id=tournament.pk)  # too early: nothing
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    assert tournament_start(tournament_id=tournament.pk)
    assert not tournament_start(tournament_id=tournament.pk)
    assert Pairing.objects.count() == 2


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("twice", "already_joined"),
        ("finished", "tournament_over"),
        ("full", "tournament_full"),
        ("bot", "bot"),
        ("guest_rated", "guest_not_rated"),
        ("banned", "banned"),
        ("rating", "outside_range"),
        ("few_matches", "too_few_matches"),
        ("private", "not_found"),
        ("missing", "not_found"),
    ],
)
def test_each_bad_join_is_refused_and_changes_nothing(case, code):
    from moderation.models import Sanction

    user = rated("joiner", 1500)
    fields = {
        "full": {"max_players": 1}, "rating": {"min_rating": 1600},
        "few_matches": {"min_rated_matches": 5}, "private": {"private": True},
    }.get(case, {})  # fmt: skip
    tournament = arena(**fields)
    tournament_id = tournament.pk
    if case == "twice":
        tournament_join(user=user, tournament_id=tournament_id)
    elif case == "finished":
        Tournament.objects.filter(pk=tournament_id).update(status=Status.FINISHED)
    elif case == "full":
        tournament_join(user=rated("first"), tournament_id=tournament_id)
    elif case == "bot":
        user = make_user("Bot-Test", is_bot=True, bot_level="club")
    elif case == "guest_rated":
        user = make_user("Guest-1234", is_guest=True)
    elif case == "banned":
        Sanction.objects.create(user=user, kind="ban", reason="x", created_by=make_user("mod"))
    elif case == "missing":
        tournament_id += 1000
    before = list(Player.objects.values_list("user_id", "withdrawn"))
    with pytest.raises(CommandError) as refused:
        tournament_join(user=user, tournament_id=tournament_id)
    assert refused.value.code == code
    assert str(refused.value.message)
    assert list(Player.objects.values_list("user_id", "withdrawn")) == before


def test_a_private_tournament_is_joined_with_its_link():
    tournament = arena(private=True)
    user = rated("friend")
    tournament_join(user=user, tournament_id=tournament.pk, token=tournament.token)
    assert player(user)


def test_withdrawing_during_a_match_is_refused_and_coming_back_keeps_the_points(players):
    a, b = players[:2]
    tournament = arena()
    join_all(tournament, [a, b])
    with pytest.raises(CommandError) as refused:
        tournament_withdraw(user=a, tournament_id=tournament.pk)
    assert refused.value.code == "in_a_match"
    tournament_pause(user=a, tournament_id=tournament.pk, pause=True)
    resign(b)
    tournament_withdraw(user=a, tournament_id=tournament.pk)
    assert player(a).withdrawn and player(a).points == 2
    with pytest.raises(CommandError) as twice:
        tournament_withdraw(user=a, tournament_id=tournament.pk)
    assert twice.value.code == "not_joined"
    tournament_join(user=a, tournament_id=tournament.pk)
    assert not player(a).withdrawn and player(a).points == 2
    assert after_the_waits(tournament) == 1  # paired again with b after the wait between meetings


def test_blocked_players_are_not_paired():
    a, b = rated("a1"), rated("b1")
    Block.objects.create(blocker=a, blocked=b)
    tournament = arena()
    join_all(tournament, [a, b])
    assert not Pairing.objects.exists()


def test_standings_equal_a_recomputation_from_the_matches(players):
    tournament = arena()
    join_all(tournament, players)
    for round_ in range(5):
        for loser in players[round_ % 2 :: 2]:
            if Player.objects.get(user=loser).playing_id:
                resign(loser)
    for user in players:
        pairings = Pairing.objects.filter(scored_at__isnull=False).filter(
            first=user
        ) | Pairing.objects.filter(scored_at__isnull=False, second=user)
        played = []
        for pairing in pairings.order_by("scored_at"):
            match = Match.objects.get(pk=pairing.match_id)
            mine_first = pairing.first_id == user.pk
            won = match.winner_id == user.pk
            played.append(
                Played(Result.WIN if won else Result.LOSS,
                       pairing.second_rating if mine_first else pairing.first_rating)
            )  # fmt: skip
        expected = score(played)
        got = player(user)
        assert (got.points, got.wins, got.losses) == (expected.points, expected.wins,
                                                      expected.losses)  # fmt: skip
        assert got.performance == pytest.approx(expected.performance)
    places = [row.place for row in standings(tournament.pk)]
    assert places == [1, 2, 3, 4]


def test_two_waves_at_once_never_seat_a_player_twice():
    users = [rated(f"race{index}", 1500 + index) for index in range(10)]
    tournament = arena(running=False)
    join_all(tournament, users)
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Status.RUNNING, starts_at=timezone.now()
    )
    run_together(*[lambda: tournament_pair(tournament_id=tournament.pk) for _ in range(3)])
    assert Pairing.objects.count() == 5
    seated = [
        user_id for pair in Pairing.objects.values_list("first_id", "second_id") for user_id in pair
    ]
    assert sorted(seated) == sorted(user.pk for user in users)


def test_players_create_a_limited_number_a_day(settings):
    settings.TOURNAMENTS_PER_PLAYER_PER_DAY = 2
    user = rated("host")
    start = timezone.now() + timedelta(hours=1)
    fields = dict(name="Friends", rule_set_name="traditional", length=1, time_control="turn",
                  turn_seconds=60, rated=False, minutes=30, starts_at=start,
                  private=True)  # fmt: skip
    for _ in range(2):
        tournament_create(user=user, **fields)
    with pytest.raises(CommandError) as refused:
        tournament_create(user=user, **fields)
    assert refused.value.code == "too_many_tournaments"
    assert Tournament.objects.count() == 2


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", ""), ("name", "x" * 61), ("name", ["nested"]), ("length", 5), ("length", "1"),
        ("minutes", 45), ("minutes", 10**9), ("rule_set_name", "chess"),
        ("time_control", "blitz"), ("turn_seconds", 7), ("rated", "yes"),
        ("starts_at", "past"), ("starts_at", "far"),
    ],
)  # fmt: skip
def test_bad_tournament_settings_are_refused(field, value):
    user = rated("host")
    now = timezone.now()
    if value in ("past", "far"):
        value = now - timedelta(minutes=1) if value == "past" else now + timedelta(days=8)
    fields = dict(name="Friends", rule_set_name="traditional", length=1, time_control="turn",
                  turn_seconds=60, rated=False, minutes=30, starts_at=now + timedelta(hours=1),
                  private=False)  # fmt: skip
    fields[field] = value
    with pytest.raises(CommandError) as refused:
        tournament_create(user=user, **fields)
    assert refused.value.code == "bad_field"
    assert not Tournament.objects.exists()


def test_guests_and_bots_create_no_tournament():
    for user in (
        make_user("Guest-77", is_guest=True),
        make_user("Bot-X", is_bot=True, bot_level="club"),
    ):
        with pytest.raises(CommandError):
            tournament_create(user=user, name="x", rule_set_name="traditional", length=1,
                              time_control="turn", turn_seconds=60, rated=False, minutes=30,
                              starts_at=timezone.now() + timedelta(hours=1),
                              private=False)  # fmt: skip


def test_a_series_makes_each_start_once():
    from tournaments.models import Series

    Series.objects.create(name="Hourly", every="hour", first_start=timezone.now() - timedelta(
        minutes=30))  # fmt: skip
    made = series_schedule()
    assert made == 24  # the next day's hours
    assert series_schedule() == 0
    starts = sorted(Tournament.objects.values_list("starts_at", flat=True))
    assert starts[0] > timezone.now()
    assert all(
        later - earlier == timedelta(hours=1)
        for earlier, later in zip(starts, starts[1:], strict=False)
    )


@pytest.mark.parametrize(("clock", "turn_seconds"), [("nardeon", None), ("omerta", None),
                                                     ("turn", 90)])  # fmt: skip
def test_the_matches_play_on_the_tournaments_clock(clock, turn_seconds):
    a, b = rated("clock_a"), rated("clock_b")
    tournament = arena(time_control=clock, turn_seconds=90, rule_set_name="tournament", length=3)
    join_all(tournament, [a, b])
    match = match_of(a)
    assert (match.time_control, match.turn_seconds) == (clock, turn_seconds)
    assert (match.rule_set_name, match.length, match.rated) == ("tournament", 3, True)
