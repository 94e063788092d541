"""Socket defects a hostile client could use, each as a regression test (each of these failed on
main before the fix: noted per test). Through the real ASGI application, Redis channel layer and
PostgreSQL."""

from __future__ import annotations

import json
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.wire import MAX_SAFE_INTEGER
from games import consumers, presence, selectors, services
from games.hub import hub
from games.models import Match
from tests.factories import make_user
from tests.games.conftest import cookie_for
from tests.games.test_consumers import ORIGIN, connect, next_of_type
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def pong(socket, identifier=1) -> dict:
    """The socket's answer to a ping (what it was sent before, events included, is skipped)."""
    await socket.send_json_to({"type": "ping", "id": identifier})
    while (message := await socket.receive_json_from(timeout=5))["type"] != "pong":
        assert message["type"] in ("presence", "event", "ack"), message
    return message


async def closed_with(socket, timeout: float = 5) -> int:
    while True:
        output = await socket.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return output["code"]


@pytest.mark.parametrize("identifier", [2**64, -(2**70), MAX_SAFE_INTEGER + 1, 1.5, [1], {"a": 1}])
async def test_an_id_outside_the_contract_is_refused_before_anything_runs(
    match_setup, fixed_dice, identifier
):
    """Before: a roll with id 2**64 committed, then its ack failed to encode and the socket died
    with 1011 before the events were published: the opponent never saw the move."""
    match, (white, white_cookie), _ = match_setup
    socket = await connect(match.pk, white_cookie)
    await next_of_type(socket, "snapshot")
    await sync_to_async(fixed_dice)(4, 2)
    await socket.send_to(
        text_data=json.dumps({"type": "roll", "id": identifier, "version": match.version})
    )
    error = await next_of_type(socket, "error")
    assert error["code"] == "bad_field" and "id" not in error
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).version == match.version
    assert await pong(socket) == {"type": "pong", "id": 1}
    await socket.disconnect()


@pytest.mark.parametrize("identifier", [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, "x" * 64])
async def test_the_largest_allowed_ids_reach_opponent_and_spectator(
    match_setup, fixed_dice, identifier
):
    match, (white, white_cookie), (black, black_cookie) = match_setup
    white_socket = await connect(match.pk, white_cookie)
    black_socket = await connect(match.pk, black_cookie)
    spectator = await connect(match.pk)
    for socket in (white_socket, black_socket, spectator):
        await next_of_type(socket, "snapshot")
    await sync_to_async(fixed_dice)(4, 2)
    await white_socket.send_json_to({"type": "roll", "id": identifier, "version": match.version})
    while (message := await white_socket.receive_json_from(timeout=5))["type"] != "ack":
        pass
    assert message == {"type": "ack", "id": identifier, "version": match.version + 1}
    for socket in (black_socket, spectator):
        event = await next_of_type(socket, "event")
        assert (event["kind"], event["version"]) == ("rolled", match.version + 1)
    for socket in (white_socket, black_socket, spectator):
        await socket.disconnect()


async def test_deep_nesting_is_bad_json_and_the_socket_lives(match_setup):
    """Before: 1,500 levels raised RecursionError, which `except ValueError` missed: the socket
    died without leaving the hub or presence."""
    match, (white, white_cookie), _ = match_setup
    socket = await connect(match.pk, white_cookie)
    await next_of_type(socket, "snapshot")
    for frame in ("[" * 1500 + "]" * 1500, '{"type": ' + "[" * 1500 + "]" * 1500 + "}", "NaN"):
        await socket.send_to(text_data=frame)
        assert (await next_of_type(socket, "error"))["code"] == "bad_json"
    assert await pong(socket) == {"type": "pong", "id": 1}
    await socket.disconnect()


async def test_an_unexpected_error_is_answered_and_committed_events_still_go_out(
    match_setup, fixed_dice, monkeypatch
):
    """A failure after the command committed (here: the ack cannot be written, as with the big
    id before) must not keep its events from the opponent; the sender gets `internal` and its
    socket lives on."""
    match, (white, white_cookie), (black, black_cookie) = match_setup
    white_socket = await connect(match.pk, white_cookie)
    black_socket = await connect(match.pk, black_cookie)
    for socket in (white_socket, black_socket):
        await next_of_type(socket, "snapshot")
    original_send_json = consumers.MatchSocket.send_json

    async def failing_ack(self, payload):
        if payload.get("type") == "ack":
            raise OverflowError("the ack cannot be written")
        await original_send_json(self, payload)

    monkeypatch.setattr(consumers.MatchSocket, "send_json", failing_ack)
    await sync_to_async(fixed_dice)(4, 2)
    await white_socket.send_json_to({"type": "roll", "id": "r", "version": match.version})
    event = await next_of_type(black_socket, "event")
    assert (event["kind"], event["version"]) == ("rolled", match.version + 1)
    # The sender hears its own event too (every seat's sockets are in the match's relay); the hub
    # and the error reply travel apart, so either may come first.
    heard = {}
    while len(heard) < 2:
        message = await white_socket.receive_json_from(timeout=5)
        assert message["type"] in ("presence", "event", "error"), message
        if message["type"] != "presence":
            heard[message["type"]] = message
    assert (heard["event"]["kind"], heard["event"]["version"]) == ("rolled", match.version + 1)
    assert (heard["error"]["code"], heard["error"]["id"]) == ("internal", "r")
    monkeypatch.setattr(consumers.MatchSocket, "send_json", original_send_json)
    assert await pong(white_socket) == {"type": "pong", "id": 1}
    for socket in (white_socket, black_socket):
        await socket.disconnect()


async def test_a_socket_that_dies_leaves_the_hub_and_presence(match_setup, monkeypatch):
    """Before: an exception that escaped the consumer skipped `disconnect`, so the socket stayed in
    the hub and its presence was refreshed forever (fake spectators without end)."""
    match, _, _ = match_setup

    async def broken_snapshot(self, *arguments, **keywords):
        raise RuntimeError("the snapshot could not be sent")

    monkeypatch.setattr(consumers.MatchSocket, "_send_snapshot", broken_snapshot)
    socket = WebsocketCommunicator(
        application, f"/ws/matches/{match.pk}/", headers=[ORIGIN, (b"host", b"localhost")]
    )
    await socket.connect()
    with pytest.raises(RuntimeError):
        await socket.wait(timeout=5)
    assert match.pk not in hub().sockets
    assert await presence.presence_of(match.pk) == ({"0": False, "1": False}, 0)


async def test_a_private_challenge_is_not_shown_on_its_socket_but_to_its_creator(client):
    creator = await sync_to_async(make_user)("secretive")
    stranger = await sync_to_async(make_user)("curious")
    match = await sync_to_async(services.match_create)(creator=creator, private=True)
    stranger_socket = await connect(match.pk, await sync_to_async(cookie_for)(client, stranger))
    assert (await stranger_socket.receive_json_from(timeout=5))["code"] == "not_found"
    assert await closed_with(stranger_socket) == 4404
    anonymous = await connect(match.pk)
    assert (await anonymous.receive_json_from(timeout=5))["code"] == "not_found"
    creator_socket = await connect(
        match.pk, await sync_to_async(cookie_for)(client.__class__(), creator)
    )
    snapshot = await next_of_type(creator_socket, "snapshot")
    assert snapshot["you"]["seat"] == 0
    await creator_socket.disconnect()


@pytest.mark.parametrize("change", ["deactivate", "password"])
async def test_deactivation_or_a_new_password_closes_the_users_sockets(match_setup, change):
    match, (white, white_cookie), _ = match_setup
    tabs = [await connect(match.pk, white_cookie) for _ in range(2)]
    for tab in tabs:
        await next_of_type(tab, "snapshot")

    def apply_change() -> None:
        if change == "deactivate":
            white.is_active = False
        else:
            white.set_password("a-new-long-password-77")
        white.save()

    await sync_to_async(apply_change)()
    for tab in tabs:
        assert await closed_with(tab) == 4001


async def test_saving_a_user_without_a_session_change_keeps_the_sockets(match_setup):
    match, (white, white_cookie), _ = match_setup
    socket = await connect(match.pk, white_cookie)
    await next_of_type(socket, "snapshot")
    white.first_name = "Ion"
    await sync_to_async(white.save)()
    assert await pong(socket) == {"type": "pong", "id": 1}
    await socket.disconnect()


def test_services_refuse_commands_of_a_deactivated_player(active_match, players):
    creator, _ = players
    creator.is_active = False
    creator.save()
    with pytest.raises(services.CommandError) as refused:
        services.game_roll(user=creator, match_id=active_match.pk, version=active_match.version)
    assert refused.value.code == "account_inactive"
    assert Match.objects.get(pk=active_match.pk).version == active_match.version


def test_a_snapshot_is_one_instant_even_when_a_command_commits_during_it(
    active_match, players, fixed_dice, monkeypatch
):
    """Before: match, game and move log were three reads; a command committed between them gave
    a snapshot labelled v holding the game of v+1."""
    creator, _ = players
    fixed_dice(4, 2)
    read_game = selectors.current_game
    calls = []

    def game_after_a_commit(match):
        if not calls:
            calls.append(1)
            worker = threading.Thread(
                target=lambda: services.game_roll(
                    user=creator, match_id=match.pk, version=match.version
                )
            )
            worker.start()
            worker.join()
        return read_game(match)

    monkeypatch.setattr(selectors, "current_game", game_after_a_commit)
    snapshot = selectors.match_snapshot(active_match.pk)
    assert Match.objects.get(pk=active_match.pk).version == active_match.version + 1  # it ran
    assert snapshot.version == active_match.version
    assert snapshot.state["game"]["dice"] is None  # the game as of that version: not rolled
    monkeypatch.setattr(selectors, "current_game", read_game)
    after = selectors.match_snapshot(active_match.pk)
    assert (after.version, after.state["game"]["dice"]) == (active_match.version + 1, [4, 2])


async def test_sockets_per_user_are_capped(match_setup, settings):
    settings.SOCKETS_PER_USER = 2
    match, (white, white_cookie), _ = match_setup
    first, second = [await connect(match.pk, white_cookie) for _ in range(2)]
    third = await connect(match.pk, white_cookie)
    assert (await third.receive_json_from(timeout=5))["code"] == "too_many_sockets"
    assert await closed_with(third) == 4029
    await first.disconnect()
    again = await connect(match.pk, white_cookie)
    assert (await next_of_type(again, "snapshot"))["you"]["seat"] == 0
    for socket in (second, again):
        await socket.disconnect()


async def test_sockets_per_address_are_capped_and_the_address_cannot_be_spoofed(
    match_setup, settings
):
    """Behind one trusted proxy the address is the rightmost X-Forwarded-For entry; what the
    client writes to the left of it (rotated here) does not make it someone else."""
    settings.SOCKETS_PER_ADDRESS = 3
    settings.TRUSTED_PROXY_COUNT = 1
    match, _, _ = match_setup

    async def from_address(spoofed: str) -> WebsocketCommunicator:
        forwarded = (b"x-forwarded-for", f"{spoofed}, 203.0.113.9".encode())
        socket = WebsocketCommunicator(
            application, f"/ws/matches/{match.pk}/",
            headers=[ORIGIN, (b"host", b"localhost"), forwarded],
        )  # fmt: skip
        assert (await socket.connect())[0]
        return socket

    sockets = [await from_address(f"10.0.0.{number}") for number in range(3)]
    for socket in sockets:
        await next_of_type(socket, "snapshot")
    refused = await from_address("10.0.0.99")
    assert (await refused.receive_json_from(timeout=5))["code"] == "too_many_sockets"
    assert await closed_with(refused) == 4029
    # The refused socket is not counted as a spectator.
    assert (await presence.presence_of(match.pk))[1] == 3
    for socket in sockets:
        await socket.disconnect()


async def test_snapshot_requests_per_socket_are_capped(match_setup, settings):
    settings.SNAPSHOT_REQUESTS_PER_MINUTE = 3
    match, _, _ = match_setup
    socket = await connect(match.pk)
    await next_of_type(socket, "snapshot")
    for number in range(3):
        await socket.send_json_to({"type": "snapshot", "id": number})
        assert (await next_of_type(socket, "snapshot"))["version"] == match.version
    await socket.send_json_to({"type": "snapshot", "id": "more"})
    error = await next_of_type(socket, "error")
    assert (error["code"], error["id"]) == ("rate_limited", "more")
    assert await pong(socket) == {"type": "pong", "id": 1}
    await socket.disconnect()


def test_private_challenges_per_hour_are_capped(settings):
    settings.PRIVATE_CHALLENGES_PER_HOUR = 2
    creator = make_user("inviter")
    for _ in range(2):
        match = services.match_create(creator=creator, private=True)
        services.match_cancel(user=creator, match_id=match.pk)
    with pytest.raises(services.CommandError) as refused:
        services.match_create(creator=creator, private=True)
    assert refused.value.code == "too_many_invites"
    assert Match.objects.filter(creator=creator).count() == 2
    services.match_create(creator=creator)  # an open challenge is not an invite
