"""A player's ack carrying its own command's events (docs/protocol.md "ack", `ack_events=1`),
through the real ASGI application, the hub and Redis."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Match
from tests.games.test_consumers import ORIGIN, next_of_type
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(match_id: int, cookie=None, query: str = "ack_events=1") -> WebsocketCommunicator:
    headers = [ORIGIN, (b"host", b"localhost")] + ([cookie] if cookie else [])
    path = f"/ws/matches/{match_id}/" + (f"?{query}" if query else "")
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def nothing_but_presence(communicator, timeout: float = 0.5) -> None:
    """Nothing but presence updates arrives within `timeout` (an event copy would fail here)."""
    while not await communicator.receive_nothing(timeout=timeout):
        message = await communicator.receive_json_from()
        assert message["type"] == "presence", message


async def events_and_ack(communicator) -> tuple[list[dict], dict]:
    """The sender's events up to and with its ack: carried by the ack, or, when the hub's copy
    reached the socket before the command's ack was sent, delivered before a plain ack (a
    loaded machine's order; docs/protocol.md "ack"). Either way each event once."""
    before = []
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == "ack":
            carried = message.get("events", [])
            assert not (before and carried), (before, message)  # never both
            return before + carried, message
        if message["type"] == "event":
            before.append(message)
        else:
            assert message["type"] == "presence", message


async def test_the_ack_carries_the_senders_events_and_no_copy_follows(match_setup, fixed_dice):
    match, (_white, white_cookie), (_black, black_cookie) = match_setup
    white = await connect(match.pk, white_cookie)
    black = await connect(match.pk, black_cookie)
    spectator = await connect(match.pk, query="")
    for socket in (white, black, spectator):
        await next_of_type(socket, "snapshot")

    await sync_to_async(fixed_dice)(4, 2)
    await white.send_json_to({"type": "roll", "id": "w1", "version": match.version})
    [rolled], ack = await events_and_ack(white)
    assert (ack["id"], ack["version"]) == ("w1", match.version + 1)
    # The same event, to the letter, as the opponent's and the spectator's through the hub.
    assert rolled == await next_of_type(black, "event") == await next_of_type(spectator, "event")
    assert (rolled["type"], rolled["kind"], rolled["version"]) == (
        "event",
        "rolled",
        ack["version"],
    )
    assert rolled["state"]["game"]["dice"] == [4, 2]
    await nothing_but_presence(white)  # the hub's copy is skipped by version

    # Black's refused step: a plain error, nothing carried, nothing changed.
    await black.send_json_to(
        {"type": "step", "id": "b1", "version": ack["version"], "step": [24, 20, 4]}
    )
    error = await next_of_type(black, "error")
    assert (error["code"], error["id"], "events" in error) == ("not_your_turn", "b1", False)

    await white.send_json_to(
        {"type": "step", "id": "w2", "version": ack["version"], "step": [24, 20, 4]}
    )
    [step], step_ack = await events_and_ack(white)
    assert (step["kind"], step["version"], step["detail"]["step"]) == (
        "step", ack["version"] + 1, [24, 20, 4],
    )  # fmt: skip
    assert step == await next_of_type(black, "event")
    await nothing_but_presence(white)
    stored = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert stored.version == step_ack["version"] == step["version"]

    # A snapshot asked for afterwards agrees: the sender's socket is at the match's version.
    await white.send_json_to({"type": "snapshot", "id": "w3"})
    assert (await next_of_type(white, "snapshot"))["version"] == stored.version
    for socket in (white, black, spectator):
        await socket.disconnect()


@pytest.mark.parametrize(
    "query", ["", "ack_events=0", "ack_events=yes", "ack_events=1&ack_events=1", "%ff=1"]
)
async def test_without_the_choice_the_ack_is_plain_and_the_event_follows(
    match_setup, fixed_dice, query
):
    match, (_white, white_cookie), _ = match_setup
    white = await connect(match.pk, white_cookie, query=query)
    await next_of_type(white, "snapshot")
    await sync_to_async(fixed_dice)(4, 2)
    await white.send_json_to({"type": "roll", "id": "w1", "version": match.version})
    found = {}
    while len(found) < 2:
        message = await white.receive_json_from(timeout=5)
        if message["type"] != "presence":
            found[message["type"]] = message
    assert found["ack"] == {"type": "ack", "id": "w1", "version": match.version + 1}
    assert (found["event"]["kind"], found["event"]["version"]) == ("rolled", match.version + 1)
    await white.disconnect()
