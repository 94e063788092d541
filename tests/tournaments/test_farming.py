"""A second account feeding an arena player wins, through the services on PostgreSQL and Redis
(docs/rules.md "Arena tournaments", items 2, 3 and 5): a match its loser left without playing
(resigned or left at once, aborted, claimed, lost on the clock unopened) scores nothing and moves
no rating; the same two players meet again only after the wait and at most so many times; a
player begins at most so many matches a minute; the pair is flagged for moderators; an absent
loser is paused until they resume. The farmer and the partner sit at 1500 and 1510, the two
other players at 1800 and 1810, paired with each other and busy."""

from __future__ import annotations

import pytest
from django.db.models import F

from games import services as game_services
from games.models import EndReason, Match, MatchStatus
from ratings.models import Rating, RatingChange
from tests.factories import enable_totp, make_user
from tests.tournaments.conftest import advance, after_the_waits, arena, play_turns, rated
from tournaments.arena import (
    FLAG_MEETINGS,
    MATCHES_PER_MINUTE,
    MEETINGS_PER_ARENA,
    PLAYED_TURNS,
    RATE_WINDOW,
)
from tournaments.models import ArenaPair, Pairing, Player
from tournaments.selectors import standings
from tournaments.services.pairing import tournament_pair
from tournaments.services.players import tournament_join, tournament_pause, tournament_withdraw

pytestmark = pytest.mark.django_db(transaction=True)


def player(user) -> Player:
    return Player.objects.get(user=user)


def match_between(first, second) -> Match:
    return Match.objects.get(
        tournament_pairing__isnull=False, status=MatchStatus.ACTIVE,
        creator__in=(first, second), opponent__in=(first, second),
    )  # fmt: skip


def ratings(*users) -> list:
    return [Rating.objects.filter(user=user).values_list("rating", flat=True).first()
            for user in users]  # fmt: skip


def farm_setup(*, rated_arena: bool, guest_partner: bool = False):
    """The farmer and the partner joined and paired; the two others paired with each other."""
    tournament = arena(rated=rated_arena)
    farmer = rated("farmer", 1500)
    partner = make_user("Guest-4242", is_guest=True) if guest_partner else rated("partner", 1510)
    busy = [rated("busy1", 1800), rated("busy2", 1810)]
    for user in (farmer, partner, *busy):
        tournament_join(user=user, tournament_id=tournament.pk)
    match = match_between(farmer, partner)
    assert match_between(*busy)
    return tournament, farmer, partner, match


ENDINGS = {
    "resign on move 0": lambda partner, match: game_services.match_resign(
        user=partner, match_id=match.pk
    ),
    "leave the table": lambda partner, match: game_services.match_resign(
        user=partner, match_id=match.pk, left_table=True
    ),
    "abort": lambda partner, match: game_services.match_abort(user=partner, match_id=match.pk),
}


@pytest.mark.parametrize("ending", sorted(ENDINGS))
@pytest.mark.parametrize("rated_arena", [True, False], ids=["rated", "casual"])
def test_a_partner_who_ends_it_at_once_gives_no_points_no_rating_and_no_rematch(
    rated_arena, ending
):
    tournament, farmer, partner, match = farm_setup(rated_arena=rated_arena)
    before = ratings(farmer, partner)
    ENDINGS[ending](partner, match)
    farmer_row, partner_row = player(farmer), player(partner)
    assert (farmer_row.points, farmer_row.wins, farmer_row.losses) == (0, 0, 0)
    assert (partner_row.points, partner_row.losses) == (0, 1)  # the one who left lost
    assert ratings(farmer, partner) == before
    assert not RatingChange.objects.filter(match=match).exists()
    # Both free, nobody else is: no rematch within the wait, whoever pairs.
    assert farmer_row.playing_id is None and partner_row.playing_id is None
    assert tournament_pair(tournament_id=tournament.pk) == 0
    assert Pairing.objects.filter(tournament=tournament).count() == 2
    pair = ArenaPair.objects.get(first_player=farmer)
    assert (pair.second_player_id, pair.matches, pair.unplayed) == (partner.pk, 1, 1)
    assert not partner_row.paused  # there to end it: not absent


def test_a_guest_partner_in_a_casual_arena_feeds_nothing():
    tournament, farmer, guest, match = farm_setup(rated_arena=False, guest_partner=True)
    game_services.match_resign(user=guest, match_id=match.pk)
    assert player(farmer).points == 0
    assert tournament_pair(tournament_id=tournament.pk) == 0


@pytest.mark.parametrize(
    ("loser_turns", "counted"), [(PLAYED_TURNS - 1, False), (PLAYED_TURNS, True)]
)
def test_a_rated_match_counts_once_its_loser_played_five_turns(loser_turns, counted):
    tournament, farmer, partner, match = farm_setup(rated_arena=True)
    before = ratings(farmer, partner)
    play_turns(match.pk, loser_turns)
    game_services.match_resign(user=partner, match_id=match.pk)
    assert player(farmer).points == (2 if counted else 0)
    assert player(farmer).wins == int(counted)
    assert (ratings(farmer, partner) != before) is counted
    assert RatingChange.objects.filter(match=match).count() == (2 if counted else 0)
    over = Match.objects.get(pk=match.pk)
    assert over.status == MatchStatus.FINISHED and over.winner_id == farmer.pk


def test_the_pair_meets_again_only_after_the_wait_and_at_most_five_times():
    tournament = arena()
    first, second = rated("pair1", 1500), rated("pair2", 1510)
    for user in (first, second):
        tournament_join(user=user, tournament_id=tournament.pk)
    for meeting in range(1, MEETINGS_PER_ARENA + 1):
        match = match_between(first, second)
        play_turns(match.pk)
        game_services.match_resign(user=second, match_id=match.pk)
        assert tournament_pair(tournament_id=tournament.pk) == 0  # within the wait: never
        pair = ArenaPair.objects.get(first_player=first)
        assert pair.matches == meeting and pair.unplayed == 0
        assert (pair.flagged_at is not None) is (meeting >= FLAG_MEETINGS)
        assert after_the_waits(tournament) == (1 if meeting < MEETINGS_PER_ARENA else 0)
    assert player(first).points == 2 + 2 + 4 + 4 + 4  # played matches count as ever
    assert after_the_waits(tournament) == 0  # the cap holds for the rest of the arena
    third = rated("pair3", 1520)
    tournament_join(user=third, tournament_id=tournament.pk)  # someone new: paired at once
    assert player(third).playing_id is not None


def test_a_player_begins_at_most_three_arena_matches_a_minute():
    tournament = arena()
    fast = rated("fast", 1500)
    tournament_join(user=fast, tournament_id=tournament.pk)
    for number in range(MATCHES_PER_MINUTE):
        other = rated(f"quick{number}", 1500 + number)
        tournament_join(user=other, tournament_id=tournament.pk)
        match = match_between(fast, other)
        game_services.match_abort(user=other, match_id=match.pk)
        tournament_withdraw(user=other, tournament_id=tournament.pk)
    late = rated("late", 1490)
    tournament_join(user=late, tournament_id=tournament.pk)
    assert player(fast).playing_id is None and player(late).playing_id is None
    assert tournament_pair(tournament_id=tournament.pk) == 0
    Pairing.objects.update(created_at=F("created_at") - RATE_WINDOW)  # a minute later
    assert tournament_pair(tournament_id=tournament.pk) == 1
    assert match_between(fast, late)


def test_a_claim_against_a_partner_who_never_came_scores_nothing_and_pauses_them(settings):
    settings.RECONNECT_WINDOW_SECONDS = 0  # the window (60 s) over at once
    tournament, farmer, partner, match = farm_setup(rated_arena=True)
    before = ratings(farmer, partner)
    game_services.match_claim_abandoned(user=farmer, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).end_reason == EndReason.ABANDONED
    assert player(farmer).points == 0 and ratings(farmer, partner) == before
    absent = player(partner)
    assert absent.paused and absent.paused_as_absent
    assert after_the_waits(tournament) == 0  # paused: never paired, whoever is free
    shown = next(row for row in standings(tournament.pk) if row.user_id == partner.pk)
    assert shown.me()["paused_as_absent"] is True
    # Back by the page's Resume (the wait between meetings is over by now): paired at once.
    tournament_pause(user=partner, tournament_id=tournament.pk, pause=False)
    back = player(partner)
    assert not back.paused and not back.paused_as_absent and back.playing_id is not None


def test_a_partner_who_never_opens_it_loses_on_the_clock_unpaid_and_is_paused():
    tournament, farmer, partner, match = farm_setup(rated_arena=False)
    while advance(match.pk, absent_id=partner.pk):
        pass
    over = Match.objects.get(pk=match.pk)
    assert (over.winner_id, over.end_reason) == (farmer.pk, EndReason.TIMEOUTS)
    assert player(farmer).points == 0
    assert player(partner).paused_as_absent
    assert after_the_waits(tournament) == 0


def test_the_loser_of_a_played_match_who_runs_out_of_time_is_not_paused():
    tournament, farmer, partner, match = farm_setup(rated_arena=False)
    play_turns(match.pk, 1)  # there at the start: slow later, not absent
    while advance(match.pk, absent_id=partner.pk):
        pass
    assert not player(partner).paused


def test_moderators_see_the_flagged_pairs_read_only(client):
    from django.contrib.auth.models import Group

    tournament, farmer, partner, match = farm_setup(rated_arena=True)
    game_services.match_resign(user=partner, match_id=match.pk)
    after_the_waits(tournament)
    game_services.match_resign(user=partner, match_id=match_between(farmer, partner).pk)
    flagged = ArenaPair.objects.get(first_player=farmer)
    assert flagged.unplayed == 2 and flagged.flagged_at is not None
    quiet = ArenaPair.objects.get(first_player__username="busy1")
    assert quiet.flagged_at is None

    moderator = make_user("arena_mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    enable_totp(moderator)
    client.force_login(moderator)
    url = "/admin/tournaments/arenapair/"
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "farmer" in text and "Guest" not in text and "busy1" not in text
    assert client.get(f"{url}?tournament__rated__exact=1").status_code == 200
    assert "farmer" not in client.get(f"{url}?tournament__rated__exact=0").content.decode()
    assert "farmer" in client.get(f"{url}?q=partner").content.decode()
    assert client.get(f"{url}add/").status_code == 403
    change = client.post(f"{url}{flagged.pk}/change/", {"matches": 0, "unplayed": 0})
    assert change.status_code in (403, 200)
    assert ArenaPair.objects.get(pk=flagged.pk).unplayed == 2  # nothing changes
    delete = client.post(f"{url}{flagged.pk}/delete/", {"post": "yes"})
    assert delete.status_code == 403 and ArenaPair.objects.filter(pk=flagged.pk).exists()
    assert client.get(f"{url}{quiet.pk}/change/").status_code == 302  # not listed: not found

    staff = make_user("plain_staff", is_staff=True)  # staff outside the group
    enable_totp(staff)
    client.force_login(staff)
    assert client.get(url).status_code == 403
    client.force_login(partner)
    assert client.get(url).status_code == 302  # to the admin's login
