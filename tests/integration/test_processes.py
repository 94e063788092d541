"""The real processes, started the way `make run` starts them (config.launcher run): Daphne and a
Celery worker on the test PostgreSQL and Redis, probed over real HTTP and WebSocket connections."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.factories import make_user

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def session_cookie_for(client, user) -> str:
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def receive_json(socket, timeout: float = 10.0) -> dict:
    return json.loads(await asyncio.wait_for(socket.recv(), timeout))


def test_http_pages_answer(site):
    for path in ("/", "/rules/", "/accounts/login/", "/static/css/site.css"):
        with urllib.request.urlopen(site.url + path, timeout=10) as response:
            assert response.status == 200, path


def test_websocket_handshake_carries_the_session(site, client):
    cookie = session_cookie_for(client, make_user("vasile"))

    async def scenario() -> dict:
        async with connect(
            f"ws://127.0.0.1:{site.port}/ws/me/",
            origin=site.url,
            additional_headers={"Cookie": cookie},
        ) as socket:
            return await receive_json(socket)

    assert asyncio.run(scenario()) == {"type": "hello", "user": "vasile"}


def test_anonymous_websocket_is_anonymous(site):
    async def scenario() -> dict:
        async with connect(f"ws://127.0.0.1:{site.port}/ws/me/", origin=site.url) as socket:
            return await receive_json(socket)

    assert asyncio.run(scenario()) == {"type": "hello", "user": None}


def test_websocket_from_a_foreign_origin_is_rejected(site):
    async def scenario() -> None:
        async with connect(f"ws://127.0.0.1:{site.port}/ws/me/", origin="http://evil.example"):
            pass

    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(scenario())
    assert refused.value.response.status_code == 403


def test_idle_socket_survives_20_seconds(site, client):
    """redis-py 8's 5 s socket timeout killed idle channels-redis consumers (channels_redis #422):
    after 20 idle seconds the socket must still answer, directly and through the channel layer."""
    cookie = session_cookie_for(client, make_user("idle"))

    async def scenario() -> list[dict]:
        async with connect(
            f"ws://127.0.0.1:{site.port}/ws/me/", origin=site.url,
            additional_headers={"Cookie": cookie}, ping_interval=None,
        ) as socket:  # fmt: skip
            await receive_json(socket)
            # The bell's snapshot follows the hello (docs/protocol.md "The bell").
            assert (await receive_json(socket))["type"] == "notifications"
            await asyncio.sleep(20)
            await socket.send(json.dumps({"type": "ping", "id": 7}))
            pong = await receive_json(socket)
            await socket.send(json.dumps({"type": "echo_via_layer"}))
            echoed = await receive_json(socket)
            return [pong, echoed]

    assert asyncio.run(scenario()) == [{"type": "pong", "id": 7}, {"type": "layer_echo"}]


def test_malformed_frames_get_errors_and_the_socket_lives_on(site):
    async def scenario() -> list[str]:
        codes = []
        async with connect(f"ws://127.0.0.1:{site.port}/ws/me/", origin=site.url) as socket:
            await receive_json(socket)
            for frame in ("{not json", "[1, 2]", json.dumps({"type": "nope"}), "x" * 10000):
                await socket.send(frame)
                codes.append((await receive_json(socket))["code"])
            await socket.send(json.dumps({"type": "ping"}))
            codes.append((await receive_json(socket))["type"])
        return codes

    assert asyncio.run(scenario()) == [
        "bad_json",
        "bad_message",
        "unknown_type",
        "too_large",
        "pong",
    ]


def test_rate_limit_closes_with_4008(sites):
    # The session's site lifts the limit for tests that play at a program's pace; this one needs
    # the setting's own default (lila-ws's 100 messages per 20 s): a variant site.
    site = sites.another(SOCKET_RATE_LIMIT_MESSAGES=None)

    async def scenario() -> int:
        async with connect(f"ws://127.0.0.1:{site.port}/ws/me/", origin=site.url) as socket:
            await receive_json(socket)
            for _ in range(101):
                await socket.send(json.dumps({"type": "ping"}))
            try:
                while True:
                    await receive_json(socket)
            except ConnectionClosed as closed:
                return closed.rcvd.code

    assert asyncio.run(scenario()) == 4008


def test_logging_out_closes_that_users_sockets(site, client):
    cookie = session_cookie_for(client, make_user("leaving"))

    async def scenario() -> int:
        async with connect(
            f"ws://127.0.0.1:{site.port}/ws/me/", origin=site.url,
            additional_headers={"Cookie": cookie},
        ) as socket:  # fmt: skip
            await receive_json(socket)
            # The bell's snapshot follows the hello (docs/protocol.md "The bell").
            assert (await receive_json(socket))["type"] == "notifications"
            # The logout happens in this (test) process; the socket lives in Daphne's.
            from asgiref.sync import sync_to_async

            await sync_to_async(client.post)("/accounts/logout/")
            try:
                await receive_json(socket)
            except ConnectionClosed as closed:
                return closed.rcvd.code
        return -1

    assert asyncio.run(scenario()) == 4001


def test_celery_task_round_trip(site):
    from config.tasks import echo

    assert echo.delay("round trip").get(timeout=20) == "round trip"


def test_healthz_is_green_on_the_launched_site(site):
    with urllib.request.urlopen(site.url + "/healthz", timeout=10) as response:
        body = json.loads(response.read())
    assert response.status == 200
    assert set(body["checks"].values()) == {"ok"}
