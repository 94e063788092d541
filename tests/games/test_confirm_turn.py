""" "Confirm my turn" through the services, the wire state and the match socket (docs/protocol.md,
"confirm"): the preference is on for new players and off for a player who turns it off; a turn
waiting for `confirm` keeps its clock, can be undone, is ended by `confirm` or by the deadline
(no timeout counted); `confirm` refused out of turn, too early, replayed, from a spectator, with
a wrong or stale version, and nothing changes; the computer never waits."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.test import Client
from django.utils import timezone

from accounts.forms import PreferencesForm
from accounts.models import User
from games import services
from games.models import Game, Match, Turn
from games.protocol.state import game_state
from games.services.runners import locked
from games.services.state_rows import match_state_of
from nardy import Step
from realtime.errors import CommandError
from tests.factories import make_user
from tests.games.conftest import cookie_for
from tests.games.test_consumers import connect, next_of_type
from tests.games.test_deadlines import enforce
from tests.games.timing import expire_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_new_players_confirm_their_turns_and_may_turn_it_off():
    user = User.objects.create_user(username="newcomer", email="n@example.com", password="x")
    assert user.confirm_turn is True
    form = PreferencesForm(
        data={"language": "en", "auto_roll": "", "play_forced": "", "confirm_turn": ""},
        instance=user,
    )
    assert form.is_valid(), form.errors
    form.save()
    assert User.objects.get(pk=user.pk).confirm_turn is False


def _rolled(fixed_dice, name: str, *, confirm: bool):
    """A 1-point match: White (who confirms or not) won the opening and rolled 5-3."""
    white = make_user(f"{name}_w", confirm_turn=confirm)
    black = make_user(f"{name}_b", confirm_turn=True)
    match = services.match_create(creator=white, turn_seconds=60)
    fixed_dice(6, 2, 5, 3)
    services.match_accept(user=black, match_id=match.pk)
    version = Match.objects.get(pk=match.pk).version
    version = services.game_roll(user=white, match_id=match.pk, version=version).version
    return match.pk, white, black, version


def _step(user, match_id: int, version: int, *step: int) -> int:
    return services.game_step_play(
        user=user, match_id=match_id, version=version, step=Step(*step)
    ).version


@pytest.fixture
def waiting(fixed_dice):
    """White (who confirms) has played 24/19/16 with 5-3: the whole turn, waiting."""
    match_id, white, black, version = _rolled(fixed_dice, "conf", confirm=True)
    version = _step(white, match_id, version, 24, 19, 5)
    return match_id, white, black, _step(white, match_id, version, 19, 16, 3)


def _snapshot(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    game = Game.objects.filter(match=match).order_by("-number").first()
    return match.version, game.phase, game.turn, tuple(map(tuple, game.steps)), Turn.objects.count()


def test_the_last_step_waits_with_its_clock_running_then_confirm_passes_the_turn(waiting):
    match_id, white, black, version = waiting
    match = Match.objects.get(pk=match_id)
    game = Game.objects.get(match=match)
    wire = game_state(match_state_of(match, game), timezone.now())
    assert wire["awaiting_confirm"] is True and wire["can_undo"] is True
    assert wire["phase"] == "move" and wire["legal_steps"] == []
    assert wire["clock"]["running"] and wire["clock"]["deadline_ms_left"] > 0
    assert not Turn.objects.exists()
    services.game_turn_confirm(user=white, match_id=match_id, version=version)
    turn = Turn.objects.get()
    assert turn.steps == [[24, 19, 5], [19, 16, 3]] and not turn.by_server
    game.refresh_from_db()
    assert (game.turn, game.phase) == ("b", "roll")


def test_undo_while_waiting_and_the_turn_goes_on(waiting):
    match_id, white, _, version = waiting
    version = services.game_turn_undo(user=white, match_id=match_id, version=version).version
    game = Game.objects.get(match_id=match_id)
    assert game.steps == [[24, 19, 5]] and game.phase == "move"
    state = match_state_of(Match.objects.get(pk=match_id), game)
    assert not game_state(state, timezone.now())["awaiting_confirm"]


def test_hostile_confirms_are_refused_and_change_nothing(waiting):
    match_id, white, black, version = waiting
    watcher = make_user("conf_watch")
    before = _snapshot(match_id)
    for user, sent_version, code in [
        (black, version, "not_your_turn"),  # someone else's turn
        (watcher, version, "not_a_player"),  # a spectator
        (white, version - 1, "stale_version"),  # replayed or stale
        (white, version + 5, "stale_version"),  # from the future
    ]:
        with pytest.raises(CommandError) as refused:
            services.game_turn_confirm(user=user, match_id=match_id, version=sent_version)
        assert refused.value.code == code
        assert _snapshot(match_id) == before
    version = services.game_turn_confirm(user=white, match_id=match_id, version=version).version
    after = _snapshot(match_id)
    with pytest.raises(CommandError) as again:  # the same confirm twice: applied once
        services.game_turn_confirm(user=white, match_id=match_id, version=version - 1)
    # Black is to roll now: refused before the version is even read.
    assert again.value.code in ("stale_version", "not_your_turn") and _snapshot(match_id) == after


def test_confirm_before_the_turn_is_complete_is_refused(fixed_dice):
    match_id, white, _, version = _rolled(fixed_dice, "early", confirm=True)
    version = _step(white, match_id, version, 24, 19, 5)
    before = _snapshot(match_id)
    with pytest.raises(CommandError) as half:
        services.game_turn_confirm(user=white, match_id=match_id, version=version)
    assert half.value.code == "turn_not_complete" and _snapshot(match_id) == before


def test_confirm_before_rolling_is_refused(fixed_dice):
    white, black = make_user("roll_w", confirm_turn=True), make_user("roll_b")
    match = services.match_create(creator=white, turn_seconds=60)
    fixed_dice(6, 2)
    services.match_accept(user=black, match_id=match.pk)
    with pytest.raises(CommandError) as before_roll:
        services.game_turn_confirm(
            user=white, match_id=match.pk, version=Match.objects.get(pk=match.pk).version
        )
    assert before_roll.value.code == "not_rolled"


def test_the_deadline_while_waiting_confirms_the_turn_without_a_timeout(waiting):
    match_id, *_ = waiting
    game = expire_in(Match.objects.get(pk=match_id), -0.1, schedule=False)
    assert enforce(game) is None
    turn = Turn.objects.get()
    assert turn.steps == [[24, 19, 5], [19, 16, 3]] and not turn.by_server
    match = Match.objects.get(pk=match_id)
    assert (match.timeouts_creator, match.timeouts_opponent) == (0, 0)


def test_without_the_preference_the_last_step_ends_the_turn(fixed_dice):
    match_id, white, _, version = _rolled(fixed_dice, "plain", confirm=False)
    version = _step(white, match_id, version, 24, 19, 5)
    _step(white, match_id, version, 19, 16, 3)
    assert Turn.objects.count() == 1


async def test_confirm_over_the_socket_and_its_bad_frames(waiting):
    match_id, white, black, version = waiting
    cookie = await sync_to_async(cookie_for)(Client(), white)
    socket = await connect(match_id, cookie)
    snapshot = await next_of_type(socket, "snapshot")
    assert snapshot["state"]["game"]["awaiting_confirm"] is True
    before = await sync_to_async(_snapshot)(match_id)
    for bad in [
        {"type": "confirm", "id": "x1"},  # no version
        {"type": "confirm", "id": "x2", "version": str(version)},
        {"type": "confirm", "id": "x3", "version": [version]},
        {"type": "confirm", "id": "x4", "version": 2**64},
    ]:
        await socket.send_json_to(bad)
        error = await next_of_type(socket, "error")
        assert error["code"] in ("bad_field", "bad_message"), (bad, error)
    assert await sync_to_async(_snapshot)(match_id) == before
    await socket.send_json_to({"type": "confirm", "id": "ok", "version": version})
    while (message := await socket.receive_json_from(timeout=5))["type"] != "event" or message[
        "kind"
    ] != "turn":
        assert message["type"] in ("presence", "ack", "event"), message
    assert message["detail"]["steps"] == [[24, 19, 5], [19, 16, 3]]
    await socket.disconnect()


def test_the_computer_never_waits(fixed_dice):
    person = make_user("solo_conf", confirm_turn=True)
    match = services.match_create_vs_bot(user=person, level="beginner", turn_seconds=None)
    bot = Match.objects.get(pk=match.pk).opponent
    assert bot.is_bot and bot.confirm_turn  # the column's default; the services ignore it
    with transaction.atomic():
        context = locked(match.pk)
        assert context.confirm_seats() == frozenset({0})
