"""One pairing wave begins all its matches in one batch (tournaments/services/pairing.py through
games/services/starts.py `matches_start_many`; docs/rules.md "Arena tournaments", item 2): every
match begun with its own seeds, its deadline scheduled and its players told after commit, the
standings changed once; a player who started a match another way meanwhile is left out and the
rest are paired; waves from several threads and a challenge accepted meanwhile seat nobody
twice."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.effects import AfterCommit
from games.fairness.dice import is_client_seed, is_server_seed
from games.models import Match, MatchStatus
from realtime.errors import CommandError
from tests.factories import make_user
from tests.threads import run_together
from tests.tournaments.conftest import rated, waiting_arena
from tournaments.models import Pairing, Player, Tournament
from tournaments.services import pairing as pairing_service
from tournaments.services.pairing import tournament_pair


def playing(user) -> int | None:
    return Player.objects.get(user=user).playing_id


def live_matches_of(user) -> list[int]:
    return list(
        Match.objects.filter(status=MatchStatus.ACTIVE)
        .filter(creator=user)
        .union(Match.objects.filter(status=MatchStatus.ACTIVE, opponent=user))
        .values_list("pk", flat=True)
    )


@pytest.mark.django_db  # one transaction: the after-commit work is captured, not done
def test_one_wave_begins_every_match_schedules_its_deadline_and_tells_its_players(
    django_capture_on_commit_callbacks,
):
    users = [rated(f"wave{index}", 1500 + 7 * index) for index in range(20)]
    tournament = waiting_arena(users)
    version = Tournament.objects.get(pk=tournament.pk).version
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert tournament_pair(tournament_id=tournament.pk) == 10
    left = [callback.effects for callback in callbacks if isinstance(callback, AfterCommit)]
    deadlines = [deadline for effects in left for deadline in effects.deadlines]
    notices = [notice for effects in left for notice in effects.notices]
    matches = list(Match.objects.filter(tournament_pairing__tournament=tournament))
    assert len(matches) == 10
    for match in matches:
        game = match.games.get()
        assert match.status == MatchStatus.ACTIVE and match.version >= 1
        assert game.number == 1 and game.opening_white is not None
        assert (match.rule_set_name, match.turn_seconds) == ("traditional", 60)
        assert is_server_seed(match.server_seed)
        assert all(is_client_seed(seed) and seed for seed in match.client_seeds)
        assert (match.pk, game.pk, game.turn_number, game.turn_deadline) in deadlines
        for user_id in (match.creator_id, match.opponent_id):
            assert Player.objects.get(user_id=user_id).playing_id == match.pk
            told = {"type": "tournament_paired", "tournament": tournament.pk, "match_id": match.pk}
            assert (user_id, told) in notices
    # Each match has seeds of its own, drawn for it (games/fairness).
    seeds = [seed for match in matches for seed in (match.server_seed, *match.client_seeds)]
    assert len(set(seeds)) == 30
    assert len(deadlines) == 10 and len(notices) == 20
    assert Tournament.objects.get(pk=tournament.pk).version == version + 1  # live.changed once


@pytest.mark.django_db(transaction=True)
def test_a_player_who_started_a_match_meanwhile_is_left_out_and_the_rest_are_paired(
    monkeypatch,
):
    users = [rated(f"meanwhile{index}", 1500 + 10 * index) for index in range(6)]
    tournament = waiting_arena(users)
    busy = users[2]
    challenge = game_services.match_create(creator=make_user("outsider"), rated=False)
    game_services.match_accept(user=busy, match_id=challenge.pk)
    # The wave reads who is playing before it pairs; here the match began just after that read
    # (accepted meanwhile), so only the start's own check under the start locks can see it.
    monkeypatch.setattr(pairing_service, "playing_now", lambda user_ids: set())
    assert tournament_pair(tournament_id=tournament.pk) == 2
    assert playing(busy) is None and live_matches_of(busy) == [challenge.pk]
    free = [user for user in users if playing(user) is None]
    assert len(free) == 2 and busy in free  # the busy player and whoever was to play them
    for user in users:
        if user not in free:
            assert live_matches_of(user) == [playing(user)]
    assert not Pairing.objects.filter(first__in=free).exists()
    assert not Pairing.objects.filter(second__in=free).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trial", range(3))
def test_waves_from_threads_and_a_challenge_accepted_meanwhile_seat_nobody_twice(trial):
    users = [rated(f"race{trial}_{index}", 1500 + index) for index in range(12)]
    tournament = waiting_arena(users)
    challenge = game_services.match_create(creator=make_user(f"host{trial}"), rated=False)

    def accept() -> None:
        try:
            game_services.match_accept(user=users[5], match_id=challenge.pk)
        except CommandError as refused:  # the wave seated them first
            assert refused.code == "in_a_match"

    run_together(*[lambda: tournament_pair(tournament_id=tournament.pk)] * 3, accept)
    for user in users:
        live = live_matches_of(user)
        assert len(live) <= 1, user
        if playing(user) is not None:
            assert live == [playing(user)]
    pairs = Pairing.objects.values_list("first_id", "second_id")
    seated = [user for pair in pairs for user in pair]
    assert len(seated) == len(set(seated))
    # Nobody free is left waiting while another is free (the odd one out at most).
    assert len([user for user in users if not live_matches_of(user)]) <= 1
