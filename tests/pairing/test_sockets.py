"""The lobby socket's pool commands and the site socket's challenges, through the real ASGI
application and the Redis channel layer (in this process; tests/integration runs Daphne): the
commitment each join names (games/next_seed.py) and a join that loses a deadlock."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection, transaction

from games.next_seed import next_seed_commitment
from pairing.locks import PLAYER_LOCK_CLASS, POOL_LOCK_CLASS
from pairing.models import PoolEntry
from pairing.pools import Pool
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


async def within(socket, test, seconds: float = 5.0) -> dict | None:
    """The next message for which `test` holds, or None after `seconds` (without the timed-out
    receive, which would end the socket's application)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await socket.receive_nothing(timeout=0.1):
            continue
        message = await socket.receive_json_from(timeout=5)
        if test(message):
            return message
    return None


def of_type(kind: str):
    return lambda message: message["type"] == kind


def reply_to(number: int):
    return lambda message: message["type"] in ("ack", "error") and message.get("id") == number


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


# --- The commitment a join names (games/next_seed.py) --------------------------------------------

OTHER_POOL = "tournament.5.90.rated"


async def test_a_second_tab_joining_with_a_used_commitment_is_refused_and_shown_the_new_one(client):
    user = await sync_to_async(make_user)("ana")
    cookie = await sync_to_async(cookie_for)(client, user)
    shown = await sync_to_async(next_seed_commitment)(user.pk)  # both Play pages show it
    first, second = await open_socket("/ws/lobby/", cookie), await open_socket("/ws/lobby/", cookie)
    await first.send_json_to(
        {"type": "pool_join", "pool": POOL, "client_seed": "tab1", "server_seed_hash": shown}
    )
    waiting = await until(first, "pool_waiting")
    assert (waiting["server_seed_hash"], waiting["client_seed"]) == (shown, "tab1")
    # The second tab sends its join before it hears of the new commitment.
    await second.send_json_to(
        {"type": "pool_join", "pool": OTHER_POOL, "client_seed": "tab2",
         "server_seed_hash": shown, "id": 7}
    )  # fmt: skip
    refused = await within(second, reply_to(7))
    assert refused is not None and (refused["type"], refused.get("code")) == (
        "error", "seed_changed",
    )  # fmt: skip
    entry = await sync_to_async(PoolEntry.objects.get)(user=user)
    assert (Pool.of(entry).key, entry.client_seed) == (POOL, "tab1")
    # Both pages are shown the new commitment (the second again right after its refusal).
    fresh = await sync_to_async(next_seed_commitment)(user.pk)
    assert fresh != shown
    for page in (first, second):
        told = await within(page, of_type("next_seed"))
        assert told is not None and told["server_seed_hash"] == fresh
    # With the commitment it now shows, the second tab moves the wait.
    await second.send_json_to(
        {"type": "pool_join", "pool": OTHER_POOL, "client_seed": "tab2", "server_seed_hash": fresh}
    )
    moved = await until(second, "pool_waiting")
    assert (moved["pool"], moved["server_seed_hash"], moved["client_seed"]) == (
        OTHER_POOL, fresh, "tab2",
    )  # fmt: skip
    for socket in (first, second):
        await socket.disconnect()


async def test_a_challenge_made_in_another_tab_refreshes_the_play_pages_commitment(client):
    from games.services import match_create

    user = await sync_to_async(make_user)("ana")
    cookie = await sync_to_async(cookie_for)(client, user)
    shown = await sync_to_async(next_seed_commitment)(user.pk)
    play_page = await open_socket("/ws/lobby/", cookie)
    await until(play_page, "pools")
    match = await sync_to_async(match_create)(creator=user, turn_seconds=60)
    assert match.server_seed_hash == shown
    told = await within(play_page, of_type("next_seed"))
    assert told is not None
    assert told["server_seed_hash"] == await sync_to_async(next_seed_commitment)(user.pk) != shown
    await play_page.disconnect()


# --- A join that loses a deadlock ----------------------------------------------------------------


def _deadlock_with_a_join(user_id: int, pool: Pool, holding: threading.Event) -> None:
    """Another transaction taking the locks in the wrong order (pool, then player), so that the
    join waiting for the pool's lock closes a cycle: PostgreSQL fails the join after its
    deadlock_timeout (the join's backend waited first, so it finds the cycle)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [POOL_LOCK_CLASS, pool.key]
            )
            holding.set()
            waiting = 0
            for _ in range(200):  # until the join waits for this pool's lock (10 s at most)
                cursor.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    " AND classid = %s",
                    [POOL_LOCK_CLASS],
                )
                if (waiting := cursor.fetchone()[0]) > 0:
                    break
                threading.Event().wait(0.05)
            assert waiting, "the join never waited for the pool's lock"
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [PLAYER_LOCK_CLASS, user_id])
    finally:
        connection.close()


async def test_a_join_that_loses_a_deadlock_is_told_busy_not_an_outage_and_changes_nothing(client):
    from pairing import services

    user = await sync_to_async(make_user)("ana")
    cookie = await sync_to_async(cookie_for)(client, user)
    await sync_to_async(services.pool_join)(user=user, pool=Pool.from_key(POOL))
    socket = await open_socket("/ws/lobby/", cookie)
    await until(socket, "pool_waiting")
    holding = threading.Event()
    other = threading.Thread(
        target=_deadlock_with_a_join, args=(user.pk, Pool.from_key(POOL), holding)
    )
    other.start()
    assert await asyncio.to_thread(holding.wait, 10)
    await socket.send_json_to({"type": "pool_join", "pool": OTHER_POOL, "id": 9})
    answer = await within(socket, reply_to(9), seconds=15)
    await asyncio.to_thread(other.join, 15)
    assert answer is not None and (answer["type"], answer.get("code")) == ("error", "busy")
    entry = await sync_to_async(PoolEntry.objects.get)(user=user)
    assert Pool.of(entry).key == POOL  # still waiting where it was
    await socket.disconnect()
