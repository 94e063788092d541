"""A match socket's clean-up runs to its end however often its task is cancelled meanwhile.

Daphne cancels an application that has not finished `application_close_timeout` after its client
left, and then again every second until it has (daphne.server.Server.application_checker). On a
saturated process (bench/soak.py) the clean-up's Redis round trips outlast that; a cancellation
inside it used to skip what was left, so the socket stayed in presence (counted as watching for
ever) and in the socket-limit registry and its Redis set, for every such socket.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.redis_client import client
from games import presence
from games.hub import hub
from realtime import socket_limits
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
SOCKETS = 5


async def open_socket(match_id: int, cookie) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, f"/ws/matches/{match_id}/", headers=[*HEADERS, cookie]
    )
    connected, _ = await communicator.connect()
    assert connected
    while (await communicator.receive_json_from(timeout=5))["type"] != "snapshot":
        pass
    return communicator


async def cancel_until_done(communicator: WebsocketCommunicator) -> None:
    """What Daphne does to an application slow to finish, at every turn of the loop instead of
    every second: cancel it, again and again, until it has finished."""
    communicator.future.cancel()
    while not communicator.future.done():
        await asyncio.sleep(0)
        communicator.future.cancel()


async def test_sockets_cancelled_while_closing_leave_hub_presence_and_limits(match_setup):
    match, (white, white_cookie), _black = match_setup
    user_key = f"{settings.REDIS_PREFIX}:sockets:user:{white.pk}"
    presence_key = f"{settings.REDIS_PREFIX}:presence:{match.pk}"
    await client().delete(user_key, presence_key)  # a match id of an earlier run, same prefix
    sockets = [await open_socket(match.pk, white_cookie) for _ in range(SOCKETS)]
    assert len(hub().sockets[match.pk]) == SOCKETS
    assert await client().hlen(presence_key) == SOCKETS
    assert await client().zcard(user_key) == SOCKETS

    for socket in sockets:
        await cancel_until_done(socket)
    for _ in range(500):  # clean-ups still under way end by themselves: wait up to 5 s for them
        if not socket_limits.registry().sockets and not await client().hlen(presence_key):
            break
        await asyncio.sleep(0.01)

    assert match.pk not in hub().sockets
    assert await client().hlen(presence_key) == 0
    assert await presence.presence_of(match.pk) == ({"0": False, "1": False}, 0)
    assert socket_limits.registry().sockets == {}
    assert await client().zcard(user_key) == 0
