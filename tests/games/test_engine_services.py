"""The services that now hand seats, seeds, withdrawals and the rematch to the engine
(nardy/match/seats.py): hostile callers are refused with the protocol's code and change
nothing (docs/protocol.md, `client_seed`, `rematch`, `rematch_decline`, accepting)."""

from __future__ import annotations

import pytest

from games import services
from games.models import Match
from realtime.errors import CommandError
from tests.factories import make_user


def refused(code: str, call, **arguments) -> None:
    """``call`` is refused with ``code`` and leaves the match row as it was."""
    match_id = arguments["match_id"]
    before = Match.objects.filter(pk=match_id).values().get()
    with pytest.raises(CommandError) as error:
        call(**arguments)
    assert error.value.code == code
    assert Match.objects.filter(pk=match_id).values().get() == before


def test_only_the_creator_withdraws_or_reseeds_an_open_challenge(players) -> None:
    creator, other = players
    match = services.match_create(creator=creator, client_seed="first")
    refused("not_a_player", services.match_cancel, user=other, match_id=match.pk)
    refused(
        "not_a_player", services.match_client_seed, user=other, match_id=match.pk,
        client_seed="theirs",
    )  # fmt: skip
    services.match_client_seed(user=creator, match_id=match.pk, client_seed="second")
    services.match_cancel(user=creator, match_id=match.pk)
    refused("match_not_active", services.match_cancel, user=creator, match_id=match.pk)
    refused(
        "match_not_active", services.match_client_seed, user=creator, match_id=match.pk,
        client_seed="third",
    )  # fmt: skip
    match.refresh_from_db()
    assert match.status == "cancelled" and match.client_seed_creator == "second"


def test_a_seat_taken_writes_the_player_and_seed_and_begins(players, fixed_dice) -> None:
    creator, opponent = players
    match = services.match_create(creator=creator, rated=False, min_rating=1400, max_rating=1600)
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=match.pk, client_seed="joiner")
    match.refresh_from_db()
    assert (match.opponent_id, match.client_seed_opponent) == (opponent.pk, "joiner")
    assert match.status == "active" and match.games.get().white_seat == 0
    late = make_user("late_comer")
    refused("match_not_active", services.match_accept, user=late, match_id=match.pk)


def test_outside_the_rating_range_or_a_guest_in_a_rated_match_changes_nothing(players) -> None:
    creator, _ = players
    ranged = services.match_create(creator=creator, rated=False, min_rating=1600)
    refused("outside_range", services.match_accept, user=make_user("low"), match_id=ranged.pk)
    services.match_cancel(user=creator, match_id=ranged.pk)
    rated = services.match_create(creator=creator, rated=True)
    guest = make_user("guest_engine", is_guest=True)
    refused("guest_not_rated", services.match_accept, user=guest, match_id=rated.pk)


def test_a_rematch_accepted_twice_starts_one_match(active_match, players, fixed_dice) -> None:
    white, black = players
    match_id = active_match.pk
    services.match_resign(user=black, match_id=match_id)
    refused("match_not_finished", services.match_rematch_decline, user=white, match_id=match_id)
    services.match_rematch_offer(user=white, match_id=active_match.pk, client_seed="w-seed")
    fixed_dice(5, 1)
    services.match_rematch_offer(user=black, match_id=active_match.pk, client_seed="b-seed")
    active_match.refresh_from_db()
    rematch = active_match.rematch
    assert (rematch.creator_id, rematch.opponent_id) == (black.pk, white.pk)
    assert (rematch.client_seed_creator, rematch.client_seed_opponent) == ("b-seed", "w-seed")
    assert active_match.rematch_offered_by is None and active_match.rematch_server_seed == ""
    for user in (white, black):  # replayed, from either side
        refused("match_not_finished", services.match_rematch_offer, user=user, match_id=match_id)
    watcher = make_user("watcher")
    refused("not_a_player", services.match_rematch_offer, user=watcher, match_id=match_id)
    assert Match.objects.filter(rematch_of__isnull=False).count() == 1
