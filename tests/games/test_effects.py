"""What a match command leaves for after its commit (games/effects.py, games/services/follow_up.py):
one after-commit callback with an explicit value, nothing for a refused command, and, performed,
the match's events on its channel, the lobby's notice and the users' notices."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from games import hooks, services
from games.effects import AfterCommit, Effects, on_commit, perform
from games.events import LOBBY_GROUP
from nardy import Step
from tests.factories import make_user
from tests.match_channel import MatchChannel

pytestmark = pytest.mark.django_db


def left_effects(callbacks) -> list[Effects]:
    return [callback.effects for callback in callbacks if isinstance(callback, AfterCommit)]


def test_a_command_leaves_one_value_with_its_events_in_version_order(
    match_setup, fixed_dice, django_capture_on_commit_callbacks
):
    match, (white, _), _ = match_setup
    fixed_dice(4, 2)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.game_roll(user=white, match_id=match.pk, version=match.version)
    [effects] = left_effects(callbacks)
    assert len(callbacks) == 1  # nothing else is done after the commit
    [events] = effects.events.values()
    assert list(effects.events) == [match.pk]
    assert [event["version"] for event in events] == [match.version + 1]
    assert events[0]["kind"] == "rolled"
    assert not effects.lobby_changed and not effects.bot_turns and not effects.notices
    assert effects.deadlines == []  # an untimed match has no deadline to enforce


def test_a_timed_turn_leaves_its_deadline_once(fixed_dice, django_capture_on_commit_callbacks):
    anna, boris = make_user("fx_anna"), make_user("fx_boris")
    match = services.match_create(creator=anna, turn_seconds=30)
    fixed_dice(6, 1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.match_accept(user=boris, match_id=match.pk)
    match.refresh_from_db()
    game = match.games.get()
    [effects] = left_effects(callbacks)
    # The reconnect windows go through the one value; what else follows a start is the
    # match_started announcement (games/services/starts.py).
    assert [c.__qualname__ for c in callbacks if not isinstance(c, AfterCommit)] == [
        "matches_started.<locals>.<lambda>"
    ]
    assert effects.lobby_changed  # the challenge left the lobby's list
    assert effects.began == [(match.pk, match.started_at)] and effects.finished == []
    [deadline] = effects.deadlines
    assert deadline == (match.pk, game.pk, game.turn_number, game.turn_deadline)
    # The first step of the same turn starts no new clock: no second deadline task.
    mover = anna if game.seat_of_side(game.turn) == 0 else boris
    fixed_dice(4, 2)
    services.game_roll(user=mover, match_id=match.pk, version=match.version)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.game_step_play(user=mover, match_id=match.pk, version=match.version + 1,
                                step=Step(24, 20, 4))  # fmt: skip
    [effects] = left_effects(callbacks)
    assert effects.deadlines == []
    assert [event["kind"] for event in effects.events[match.pk]] == ["step"]


@pytest.mark.parametrize(
    "command",
    ["stale version", "out of turn", "not a player", "no such match", "illegal step"],
)
def test_a_refused_command_leaves_nothing(
    match_setup, fixed_dice, django_capture_on_commit_callbacks, command
):
    match, (white, _), (black, _) = match_setup
    stranger = make_user("fx_stranger")
    calls = {
        "stale version": lambda: services.game_roll(
            user=white, match_id=match.pk, version=match.version - 1
        ),
        "out of turn": lambda: services.game_roll(
            user=black, match_id=match.pk, version=match.version
        ),
        "not a player": lambda: services.game_roll(
            user=stranger, match_id=match.pk, version=match.version
        ),
        "no such match": lambda: services.game_roll(
            user=white, match_id=10**9, version=match.version
        ),
        "illegal step": lambda: services.game_step_play(
            user=white, match_id=match.pk, version=match.version, step=Step(24, 1, 6)
        ),
    }
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(services.CommandError):
            calls[command]()
    assert callbacks == []


def test_performed_the_events_go_to_the_match_channel_in_one_message(
    match_setup, fixed_dice, django_capture_on_commit_callbacks
):
    match, (white, _), _ = match_setup
    channel = MatchChannel(match.pk)
    fixed_dice(4, 2)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_roll(user=white, match_id=match.pk, version=match.version)
    [message] = channel.messages()
    assert message["type"] == "match.events" and message["match"] == match.pk
    assert [event["version"] for event in message["events"]] == [match.version + 1]
    channel.close()


async def test_performed_the_lobby_and_users_hear_of_it():
    layer = get_channel_layer()
    lobby, user = await layer.new_channel(), await layer.new_channel()
    await layer.group_add(LOBBY_GROUP, lobby)
    await layer.group_add("user.31337", user)
    perform(Effects(lobby_changed=True, notices=[(31337, {"type": "challenge_gone"})]))
    assert await asyncio.wait_for(layer.receive(lobby), 5) == {"type": "lobby.changed"}
    assert await asyncio.wait_for(layer.receive(user), 5) == {
        "type": "user.notify",
        "payload": {"type": "challenge_gone"},
    }
    await layer.group_discard(LOBBY_GROUP, lobby)
    await layer.group_discard("user.31337", user)


def test_an_ending_with_a_result_tells_the_apps_above_once(
    match_setup, django_capture_on_commit_callbacks
):
    match, (white, _), _ = match_setup
    heard = []

    def receiver(sender, match_id, rated, **kwargs):
        heard.append((match_id, rated))

    hooks.match_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            services.match_resign(user=white, match_id=match.pk)
    finally:
        hooks.match_finished.disconnect(receiver)
    [effects] = left_effects(callbacks)
    assert effects.began == []
    assert effects.finished == [(match.pk, True)]  # match_create's challenges are rated
    assert heard == [(match.pk, True)]


def test_nothing_to_do_registers_nothing(django_capture_on_commit_callbacks):
    assert not Effects(events={7: []})
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        on_commit(Effects())
        on_commit(Effects(events={7: []}))
    assert callbacks == []
