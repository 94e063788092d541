"""The lobby socket's pool commands and the site socket's challenges, through the real ASGI
application and the Redis channel layer (in this process; tests/integration runs Daphne)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from pairing.models import PoolEntry
from tests.factories import make_user
from tests.games.conftest import cookie_for
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
POOL = "traditional.1.60.rated"


async def open_socket(path: str, cookie=None) -> WebsocketCommunicator:
    headers = HEADERS + ([cookie] if cookie else [])
    socket = WebsocketCommunicator(application, path, headers=headers)
    assert (await socket.connect())[0]
    return socket


async def until(socket, kind: str) -> dict:
    while (message := await socket.receive_json_from(timeout=5))["type"] != kind:
        pass
    return message


async def test_a_visitor_cannot_join_a_pool():
    socket = await open_socket("/ws/lobby/")
    await socket.send_json_to({"type": "pool_join", "pool": POOL, "id": 3})
    error = await until(socket, "error")
    assert (error["code"], error["id"]) == ("login_required", 3)
    await socket.disconnect()


async def test_joining_reports_the_wait_and_a_new_page_gets_it_back(client):
    user = await sync_to_async(make_user)("ana")
    cookie = await sync_to_async(cookie_for)(client, user)
    socket = await open_socket("/ws/lobby/", cookie)
    assert (await until(socket, "pools"))["counts"] == {}
    await socket.send_json_to({"type": "pool_join", "pool": "traditional.9.60.rated", "id": 1})
    assert (await until(socket, "error"))["code"] == "bad_field"
    await socket.send_json_to({"type": "pool_join", "pool": POOL, "id": 2})
    assert (await until(socket, "ack"))["id"] == 2
    waiting = await until(socket, "pool_waiting")
    assert (waiting["pool"], waiting["size"]) == (POOL, 1)
    assert 100 <= waiting["window"] < 130  # ±100 at once, widening by 10 a second
    await socket.disconnect()
    again = await open_socket("/ws/lobby/", cookie)
    assert (await until(again, "pool_waiting"))["pool"] == POOL
    await again.send_json_to({"type": "pool_leave", "id": 4})
    await until(again, "pool_left")
    assert not await sync_to_async(PoolEntry.objects.exists)()
    await again.send_json_to({"type": "pool_accept", "proposal": True})
    assert (await until(again, "error"))["code"] == "bad_field"
    await again.send_json_to({"type": "pool_accept", "proposal": 5})
    assert (await until(again, "error"))["code"] == "no_proposal"
    await again.disconnect()


async def test_a_direct_challenge_reaches_the_site_socket_live_and_on_connect(client):
    from games.services.challenges import challenge_direct

    ana, bogdan = await sync_to_async(make_user)("ana"), await sync_to_async(make_user)("bogdan")
    cookie = await sync_to_async(cookie_for)(client, bogdan)
    socket = await open_socket("/ws/me/", cookie)
    assert (await socket.receive_json_from(timeout=5))["user"] == "bogdan"
    match = await sync_to_async(challenge_direct)(creator=ana, invited=bogdan, turn_seconds=60)
    notice = await until(socket, "challenge")
    assert (notice["match_id"], notice["from"], notice["rating"]) == (match.pk, "ana", 1500)
    assert 100 < notice["expires_in"] <= 120
    assert notice["cube"] is False
    assert notice["accept_url"] == f"/matches/{match.pk}/accept/"
    await socket.disconnect()
    later = await open_socket("/ws/me/", cookie)
    assert (await until(later, "challenge"))["match_id"] == match.pk
    await later.disconnect()
