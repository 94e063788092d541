"""At the table, through the services: claiming an abandoned match (presence in Redis), forced
turns by preference, the rule pages' clocks on real rows, and abandonments on the profile."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import presence, services
from games.models import Game, Match, MatchStatus, Turn
from games.presence import _away_key, _sync_client
from ratings.records import player_record
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _here(match_id: int, seat: int, channel: str = "test-socket") -> None:
    asyncio.run(presence.presence_join(match_id, channel, seat))


def _away_since(match_id: int, seat: int, seconds_ago: float) -> None:
    _sync_client().hset(_away_key(match_id), str(seat), int((time.time() - seconds_ago) * 1000))


@pytest.fixture(autouse=True)
def _clean_presence(active_match):
    """The match started ten minutes ago, and presence has watched it since (as after the
    start's commit, which these tests' transactions never reach)."""
    client = _sync_client()
    client.delete(presence._key(active_match.pk), _away_key(active_match.pk))
    started = timezone.now() - timedelta(minutes=10)
    Match.objects.filter(pk=active_match.pk).update(started_at=started)
    presence.presence_match_started(active_match.pk, started)
    yield
    client.delete(presence._key(active_match.pk), _away_key(active_match.pk))


def test_claim_is_refused_while_the_opponent_is_here_or_within_the_window(active_match, players):
    white, black = players
    _here(active_match.pk, 1)
    with pytest.raises(services.CommandError) as refused:
        services.match_claim_abandoned(user=white, match_id=active_match.pk)
    assert refused.value.code == "opponent_present"
    asyncio.run(presence.presence_leave(active_match.pk, "test-socket"))
    _away_since(active_match.pk, 1, 30)
    with pytest.raises(services.CommandError) as refused:
        services.match_claim_abandoned(user=white, match_id=active_match.pk)
    assert refused.value.code == "reconnect_window" and "30 s" in refused.value.message
    match = Match.objects.get(pk=active_match.pk)
    assert match.status == MatchStatus.ACTIVE and match.version == active_match.version


def test_claim_after_the_window_wins_rated_and_counts_on_the_profile(active_match, players, client):
    white, black = players
    _away_since(active_match.pk, 1, 61)
    services.match_claim_abandoned(user=white, match_id=active_match.pk)
    match = Match.objects.get(pk=active_match.pk)
    assert (match.status, match.end_reason, match.winner_id) == ("finished", "abandoned", white.pk)
    assert match.rated and white.rating.value > 1500 > black.rating.value
    assert player_record(black).abandoned == 1 and player_record(white).abandoned == 0
    page = client.get(reverse("profile", kwargs={"username": black.username})).content.decode()
    assert 'id="abandoned">1<' in page
    with pytest.raises(services.CommandError) as replayed:
        services.match_claim_abandoned(user=white, match_id=active_match.pk)
    assert replayed.value.code == "match_not_active"


def test_an_away_mark_from_before_the_start_does_not_count(active_match, players):
    """However the seat came to be marked away before the start, the window runs from the start
    (the match row's), so a claim right after the start is refused."""
    white, _ = players
    started = timezone.now()
    Match.objects.filter(pk=active_match.pk).update(started_at=started)
    presence.presence_match_started(active_match.pk, started)
    _away_since(active_match.pk, 1, 600)
    with pytest.raises(services.CommandError) as refused:
        services.match_claim_abandoned(user=white, match_id=active_match.pk)
    assert refused.value.code == "reconnect_window"
    assert Match.objects.get(pk=active_match.pk).status == MatchStatus.ACTIVE


def test_a_spectator_cannot_claim(active_match):
    from tests.factories import make_user

    _away_since(active_match.pk, 1, 600)
    with pytest.raises(services.CommandError) as refused:
        services.match_claim_abandoned(user=make_user("watcher"), match_id=active_match.pk)
    assert refused.value.code == "not_a_player"


@pytest.mark.parametrize("play_forced", [False, True])
def test_forced_turns_by_preference(active_match, players, fixed_dice, play_forced):
    white, _ = players
    white.play_forced = play_forced
    white.save(update_fields=["play_forced"])
    # On the first turn 5-3 has one legal turn: one checker leaves the head to 16
    # (docs/rules.md, A turn, item 4).
    fixed_dice(5, 3)
    services.game_roll(user=white, match_id=active_match.pk, version=active_match.version)
    game = Game.objects.get(match=active_match)
    if play_forced:
        assert game.turn == "b" and game.phase == "roll"
        (turn,) = Turn.objects.filter(game=game)
        assert turn.steps == [[24, 19, 5], [19, 16, 3]] and not turn.by_server
    else:
        assert game.turn == "w" and game.phase == "move" and game.steps == []


def test_a_nardeon_match_starts_with_the_match_reserve_and_a_sixty_second_cap(fixed_dice):
    white, black = make_user("clock_white"), make_user("clock_black")  # players are at a table
    match = services.match_create(creator=white, time_control="nardeon", turn_seconds=60,
                                  reserve_seconds=120)  # fmt: skip
    assert (match.turn_seconds, match.reserve_seconds) == (None, 0)  # the seed's fixed figures
    fixed_dice(6, 2)
    services.match_accept(user=black, match_id=match.pk)
    match.refresh_from_db()
    game = Game.objects.get(match=match)
    assert (match.reserve_ms_creator, match.reserve_ms_opponent) == (120_000, 120_000)
    assert game.turn_deadline == game.turn_started_at + timedelta(seconds=60)


def test_an_omerta_step_restarts_the_timer_on_the_row(fixed_dice):
    white, black = make_user("clock_white"), make_user("clock_black")  # players are at a table
    match = services.match_create(creator=white, time_control="omerta", rated=True)
    fixed_dice(6, 2)
    services.match_accept(user=black, match_id=match.pk)
    match.refresh_from_db()
    fixed_dice(6, 6)
    services.game_roll(user=white, match_id=match.pk, version=match.version)
    before = Game.objects.get(match=match)
    version = Match.objects.get(pk=match.pk).version
    services.game_step_play(
        user=white, match_id=match.pk, version=version, step=services_step(24, 18, 6)
    )
    after = Game.objects.get(match=match)
    assert after.steps_timed == 1 and after.clock_started_at > before.clock_started_at
    assert after.turn_deadline == after.clock_started_at + timedelta(seconds=90)


def test_an_unknown_time_control_is_refused(players):
    before = Match.objects.count()
    with pytest.raises(services.CommandError) as refused:
        services.match_create(creator=players[0], time_control="blitz")
    assert refused.value.code == "bad_field"
    assert Match.objects.count() == before


def services_step(source: int, destination: int, die: int):
    from nardy import Step

    return Step(source, destination, die)


@pytest.mark.parametrize(
    "value", ["blitz", "x" * 5000, "NARDEON", "turn\x00", "", "['omerta']", "omerta ", "1"]
)
def test_hostile_time_controls_on_the_create_form_change_nothing(client, players, value):
    creator = players[1]
    client.force_login(creator)
    before = Match.objects.count()
    response = client.post(
        reverse("match_create"),
        {"rule_set_name": "traditional", "turn_seconds": 60, "reserve_seconds": 0,
         "time_control": value, "head_exception": "classic", "opening": "reroll"},
    )  # fmt: skip
    created = Match.objects.filter(creator=creator)
    if value == "":  # left out: the per-turn clock, as before the field existed
        assert response.status_code == 302 and created.get().time_control == "turn"
    else:
        assert response.status_code == 400 and Match.objects.count() == before


@pytest.mark.parametrize("value", ["2", "", "true", "x" * 10000, "1\x00"])
def test_the_sound_toggle_refuses_anything_but_0_or_1(client, players, value):
    user = players[0]
    client.force_login(user)
    response = client.post(reverse("preferences_sounds"), {"muted": value})
    assert response.status_code == 400
    user.refresh_from_db()
    assert user.sounds_muted is False


def test_the_sound_toggle_is_remembered_on_the_account(client, players):
    user = players[0]
    client.force_login(user)
    assert client.post(reverse("preferences_sounds"), {"muted": "1"}).status_code == 204
    user.refresh_from_db()
    assert user.sounds_muted is True
    page = client.get(reverse("match", kwargs={"match_id": Match.objects.first().pk}))
    assert 'data-sounds-muted="true"' in page.content.decode()
    assert client.get(reverse("preferences_sounds")).status_code == 405
    client.logout()
    assert client.post(reverse("preferences_sounds"), {"muted": "0"}).status_code == 302
