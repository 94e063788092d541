"""The lobby socket's live list after pairings (games/lobby_socket.py), through the real ASGI
application and the Redis channel layer: the last change of a burst always reaches every open
lobby socket, even when another socket of the process read the lobby just before it."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import lobby_socket
from games.models import Match
from pairing import services
from tests.pairing.conftest import TRADITIONAL_1_60, rated
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def open_lobby() -> tuple[WebsocketCommunicator, dict]:
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=HEADERS)
    assert (await socket.connect())[0]
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "lobby"
    return socket, first


async def latest_lobby(socket: WebsocketCommunicator, quiet: float) -> dict | None:
    """The last `lobby` message the socket sent before it stayed silent for `quiet` seconds."""
    latest = None
    while not await socket.receive_nothing(timeout=quiet):
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == "lobby":
            latest = message
    return latest


@sync_to_async
def paired(first, second) -> int:
    """Both join the pool; the second join pairs them into a started match (a lobby change)."""
    services.pool_join(user=first, pool=TRADITIONAL_1_60)
    services.pool_join(user=second, pool=TRADITIONAL_1_60)
    return Match.objects.get(paired_waits__user=first).pk


def live_ids(lobby: dict | None) -> set[int]:
    return {match["id"] for match in (lobby or {"live": []})["live"]}


async def test_a_change_heard_while_another_socket_had_just_read_the_lobby_is_still_sent(
    monkeypatch,
):
    # A wider debounce than the site's 0.5 s, so the steps below fit in it on a loaded machine.
    debounce = 1.0
    monkeypatch.setattr(lobby_socket, "LOBBY_DEBOUNCE_SECONDS", debounce)
    players = [await sync_to_async(rated)(f"burst{n}", 1500 + n) for n in range(4)]
    observer, _first = await open_lobby()
    await asyncio.sleep(debounce + 0.2)  # the observer's own first read is old now
    first_match = await paired(players[0], players[1])
    # The observer waits out its debounce; meanwhile a page opens (reading the lobby with the
    # first match) and then the last match of the burst starts.
    await asyncio.sleep(debounce * 0.3)
    fresh, fresh_first = await open_lobby()
    assert live_ids(fresh_first) == {first_match}
    last_match = await paired(players[2], players[3])
    seen = await latest_lobby(observer, quiet=3 * debounce)
    assert live_ids(seen) == {first_match, last_match}
    late, late_first = await open_lobby()
    assert live_ids(late_first) == live_ids(seen)
    for socket in (observer, fresh, late):
        await socket.disconnect()
