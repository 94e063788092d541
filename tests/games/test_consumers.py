"""The match socket through the real ASGI application and the Redis channel layer."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import services
from tests.factories import make_user
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://localhost")


async def connect(match_id: int, cookie=None) -> WebsocketCommunicator:
    headers = [ORIGIN, (b"host", b"localhost")] + ([cookie] if cookie else [])
    communicator = WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def next_of_type(communicator, kind: str, timeout: float = 5) -> dict:
    """The next message of a type, skipping presence updates."""
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message
        assert message["type"] == "presence", message


async def next_skipping_acks(communicator, kind: str) -> dict:
    """The next message of a type, skipping presence updates and acks (an ack may come before
    or after the events of its command)."""
    while (message := await communicator.receive_json_from(timeout=5))["type"] != kind:
        assert message["type"] in ("presence", "ack"), message
    return message


async def receive_kinds(communicator, count: int) -> dict[str, dict]:
    """The next `count` non-presence messages, by type."""
    found = {}
    while len(found) < count:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] != "presence":
            found[message["type"]] = message
    return found


async def test_snapshot_events_acks_and_errors_only_to_the_sender(match_setup, fixed_dice):
    match, (white, white_cookie), (black, black_cookie) = match_setup
    white_socket = await connect(match.pk, white_cookie)
    black_socket = await connect(match.pk, black_cookie)
    spectator = await connect(match.pk)

    snapshot = await next_of_type(white_socket, "snapshot")
    assert snapshot["you"] == {"user": "wsw", "seat": 0, "side": "w"}
    assert snapshot["version"] == match.version
    assert snapshot["state"]["game"]["phase"] == "roll"
    assert (await next_of_type(black_socket, "snapshot"))["you"]["side"] == "b"
    watching = await next_of_type(spectator, "snapshot")
    assert watching["you"] == {"user": None, "seat": None, "side": None}
    assert watching["state"]["spectators"] == 1

    # A spectator's command: an error to the spectator alone.
    await spectator.send_json_to({"type": "roll", "id": "s1", "version": match.version})
    error = await next_of_type(spectator, "error")
    assert (error["code"], error["id"]) == ("not_a_player", "s1")
    # Out of turn: an error to Black alone.
    await black_socket.send_json_to({"type": "roll", "id": "b1", "version": match.version})
    assert (await next_of_type(black_socket, "error"))["code"] == "not_your_turn"

    await sync_to_async(fixed_dice)(4, 2)
    await white_socket.send_json_to({"type": "roll", "id": "w1", "version": match.version})
    # The sender gets the event and its ack (in either order: the ack does not wait for Redis).
    received = await receive_kinds(white_socket, 2)
    assert received["ack"] == {"type": "ack", "id": "w1", "version": match.version + 1}
    for event in [received["event"]] + [
        await next_of_type(s, "event") for s in (black_socket, spectator)
    ]:
        assert (event["kind"], event["version"]) == ("rolled", match.version + 1)
        assert event["state"]["game"]["dice"] == [4, 2]
    # Nobody else got an ack or an error.
    for socket in (black_socket, spectator):
        assert (
            await socket.receive_nothing(timeout=0.3)
            or (await socket.receive_json_from())["type"] == "presence"
        )

    # An illegal step: error to White, nothing to anyone else, nothing changed.
    await white_socket.send_json_to(
        {"type": "step", "id": "w2", "version": match.version + 1, "step": [24, 19, 5]}
    )
    assert (await next_of_type(white_socket, "error"))["code"] == "illegal_step"
    await white_socket.send_json_to(
        {"type": "step", "id": "w3", "version": match.version + 1, "step": [24, 20, 4]}
    )
    assert set(await receive_kinds(white_socket, 2)) == {"ack", "event"}
    event = await next_of_type(black_socket, "event")
    assert event["kind"] == "step" and event["detail"]["step"] == [24, 20, 4]
    for socket in (white_socket, black_socket, spectator):
        await socket.disconnect()


async def test_resync_after_a_missed_version(match_setup, fixed_dice):
    match, (white, white_cookie), _ = match_setup
    socket = await connect(match.pk, white_cookie)
    first = await next_of_type(socket, "snapshot")
    # Changes the socket does not see (it is told to resync, as after a dropped connection).
    await sync_to_async(fixed_dice)(5, 3)
    await sync_to_async(services.game_roll)(user=white, match_id=match.pk, version=first["version"])
    await next_of_type(socket, "event")
    await socket.send_json_to({"type": "snapshot", "id": "again"})
    snapshot = await next_of_type(socket, "snapshot")
    assert snapshot["version"] == first["version"] + 1
    assert snapshot["state"]["game"]["legal_steps"]
    await socket.disconnect()


async def test_events_carry_the_match_if_changed_and_turn_events_the_new_log_entry(
    match_setup, fixed_dice
):
    match, (white, white_cookie), _ = match_setup
    socket = await connect(match.pk, white_cookie)
    snapshot = await next_of_type(socket, "snapshot")
    assert snapshot["state"]["moves"] == []
    version = snapshot["version"]
    await sync_to_async(fixed_dice)(4, 2)
    commands = [({"type": "roll"}, "rolled"), ({"type": "step", "step": [24, 20, 4]}, "step"),
                ({"type": "step", "step": [20, 18, 2]}, "step")]  # fmt: skip
    for command, kind in commands:
        await socket.send_json_to({**command, "version": version})
        event = await next_skipping_acks(socket, "event")
        assert event["kind"] == kind and set(event["state"]) == {"game"}  # match unchanged
        version = event["version"]
    event = await next_skipping_acks(socket, "event")
    # Roll 2 of game 1: the opening roll (6-1) was roll 1 (games/fairness numbering).
    entry = {"number": 1, "side": "w", "dice": [4, 2], "roll": 2,
             "steps": [[24, 20, 4], [20, 18, 2]], "by_server": False, "doubled_to": 0}  # fmt: skip
    assert (event["kind"], event["detail"]) == ("turn", {**entry, "passed": False})
    assert set(event["state"]) == {"game"} and event["state"]["game"]["turn"] == "b"
    await socket.send_json_to({"type": "snapshot"})
    assert (await next_skipping_acks(socket, "snapshot"))["state"]["moves"] == [entry]
    # An event that changes the match carries it.
    await socket.send_json_to({"type": "resign"})
    event = await next_skipping_acks(socket, "event")
    assert event["kind"] == "match_over"
    assert (event["state"]["match"]["status"], event["state"]["match"]["winner"]) == ("finished", 1)
    await socket.disconnect()


async def test_malformed_frames_unknown_types_and_oversized_messages(match_setup):
    match, (white, white_cookie), _ = match_setup
    socket = await connect(match.pk, white_cookie)
    await next_of_type(socket, "snapshot")
    frames = [
        ("{oops", "bad_json"),
        (json.dumps([1]), "bad_message"),
        (json.dumps({"type": "fly"}), "unknown_type"),
        (json.dumps({"type": "roll"}), "bad_field"),
        (json.dumps({"type": "step", "version": 1, "step": [24, 19]}), "bad_field"),
        (json.dumps({"type": "step", "version": 1, "step": [25, 19, 9]}), "bad_field"),
        (json.dumps({"type": "ping", "id": "x" * 65}), "bad_field"),
        ("y" * 5000, "too_large"),
    ]
    for frame, code in frames:
        await socket.send_to(text_data=frame)
        assert (await next_of_type(socket, "error"))["code"] == code, frame
    await socket.send_to(bytes_data=b"\x00\x01")
    assert (await next_of_type(socket, "error"))["code"] == "bad_frame"
    # The socket and the match are fine.
    await socket.send_json_to({"type": "ping", "id": 1})
    assert await next_of_type(socket, "pong") == {"type": "pong", "id": 1}
    await socket.send_json_to({"type": "snapshot"})
    assert (await next_of_type(socket, "snapshot"))["version"] == match.version
    await socket.disconnect()


async def test_unknown_match_closes_4404():
    communicator = WebsocketCommunicator(
        application, "/ws/matches/999999/", headers=[ORIGIN, (b"host", b"localhost")]
    )
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["code"] == "not_found"
    assert (await communicator.receive_output())["code"] == 4404


async def test_presence_shows_the_opponent_leaving(match_setup):
    match, (white, white_cookie), (black, black_cookie) = match_setup
    white_socket = await connect(match.pk, white_cookie)
    await next_of_type(white_socket, "snapshot")
    black_socket = await connect(match.pk, black_cookie)
    presence = await white_socket.receive_json_from(timeout=5)
    while presence["presence"] != {"0": True, "1": True}:
        presence = await white_socket.receive_json_from(timeout=5)
    assert presence["away_ms"] == {"0": None, "1": None}
    await black_socket.disconnect()
    presence = await white_socket.receive_json_from(timeout=5)
    away = presence.pop("away_ms")
    assert presence == {
        "type": "presence", "presence": {"0": True, "1": False}, "spectators": 0,
        "reconnect_seconds": 60,
    }  # fmt: skip
    assert away["0"] is None and 0 <= away["1"] < 5000
    await white_socket.disconnect()


async def test_two_tabs_of_a_player_stay_in_sync_and_logging_out_closes_both(
    match_setup, fixed_dice, client
):
    match, (white, white_cookie), _ = match_setup
    first_tab = await connect(match.pk, white_cookie)
    second_tab = await connect(match.pk, white_cookie)
    for tab in (first_tab, second_tab):
        assert (await next_of_type(tab, "snapshot"))["you"]["seat"] == 0
    await sync_to_async(fixed_dice)(3, 1)
    await first_tab.send_json_to({"type": "roll", "id": "t1", "version": match.version})
    event = await next_of_type(second_tab, "event")
    assert (event["kind"], event["state"]["game"]["dice"]) == ("rolled", [3, 1])

    # Logging out (any tab, any process) closes every socket of that user with 4001.
    from django.contrib.auth.signals import user_logged_out

    await sync_to_async(user_logged_out.send)(sender=white.__class__, request=None, user=white)
    for tab in (first_tab, second_tab):
        while True:
            output = await tab.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                assert output["code"] == 4001
                break


async def test_lobby_sockets_see_new_challenges_and_live_matches(fixed_dice):
    async def lobby() -> WebsocketCommunicator:
        socket = WebsocketCommunicator(
            application, "/ws/lobby/", headers=[ORIGIN, (b"host", b"localhost")]
        )
        assert (await socket.connect())[0]
        first = await socket.receive_json_from(timeout=5)
        assert first["type"] == "lobby"
        assert (await socket.receive_json_from(timeout=5))["type"] == "pools"  # quick pairing
        return socket

    watchers = [await lobby(), await lobby()]
    creator = await sync_to_async(make_user)("lobbyist")
    match = await sync_to_async(services.match_create)(creator=creator)
    for watcher in watchers:
        update = await watcher.receive_json_from(timeout=5)
        assert [c["id"] for c in update["open"]] == [match.pk]
        assert update["open"][0]["creator"] == "lobbyist"
    await sync_to_async(fixed_dice)(5, 2)
    await sync_to_async(services.match_accept)(
        user=await sync_to_async(make_user)("joiner"), match_id=match.pk
    )
    for watcher in watchers:
        update = await watcher.receive_json_from(timeout=5)
        assert update["open"] == []
        assert [m["id"] for m in update["live"]] == [match.pk]
        assert [p["username"] for p in update["live"][0]["players"]] == ["lobbyist", "joiner"]
        await watcher.disconnect()
