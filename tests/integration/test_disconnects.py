"""The reconnect window (docs/rules.md, Platform rules, Disconnects): a player who vanishes does not
hold the opponent hostage. Two real Daphne processes on the same PostgreSQL and Redis; the missing
player's process is killed with SIGKILL (it says nothing on its way out). Presence must recover by
the processes' heartbeats (games/presence.py: about PROCESS_TTL_SECONDS + one watch period), the
reconnect window must run, a come-back must change nothing, and after the window the opponent claims
the match (reason `abandoned`, rated)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

import pytest
from websockets.asyncio.client import connect

from config import processes
from games import presence, services
from ratings.models import Rating
from tests.conftest import PROCESS_START_TIMEOUT, child_environment
from tests.factories import make_user
from tests.integration.test_processes import session_cookie_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

WINDOW_SECONDS = 8
# The stated recovery time: a dead process's heartbeat expires, and the next watch reports it.
RECOVERY_SECONDS = presence.PROCESS_TTL_SECONDS + 2 * presence.HEARTBEAT_SECONDS + 3


def start_daphne(database_name: str) -> tuple[subprocess.Popen, int]:
    port = processes.free_port()
    environment = child_environment(
        database_name,
        RECONNECT_WINDOW_SECONDS=str(WINDOW_SECONDS),
        SOCKET_RATE_LIMIT_MESSAGES="10000",
    )
    process = processes.start(
        [sys.executable, "-m", "config.server", "-b", "127.0.0.1", "-p", str(port),
         "web.asgi:application"],
        env=environment,
    )  # fmt: skip
    processes.wait_until(
        # /healthz also wants a Celery worker; these processes only serve sockets.
        lambda: processes.http_ok(f"http://127.0.0.1:{port}/rules/"),
        timeout=PROCESS_START_TIMEOUT, what="Daphne", processes=process,
    )  # fmt: skip
    return process, port


def test_disconnect_window_come_back_crash_and_claim(test_database_name, client):
    white, black = make_user("away_w"), make_user("away_b")
    match = services.match_create(creator=white, turn_seconds=60, rated=True)
    services.match_accept(user=black, match_id=match.pk)
    cookies = {
        0: session_cookie_for(client, white),
        1: session_cookie_for(client.__class__(), black),
    }
    first, first_port = start_daphne(test_database_name)
    second, second_port = start_daphne(test_database_name)
    try:
        report = asyncio.run(_scenario(match.pk, cookies, first_port, second_port, second))
    finally:
        processes.stop([first, second])
    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner_id) == ("finished", "abandoned", white.pk)
    assert Rating.objects.get(user=white).value > Rating.objects.get(user=black).value
    assert report["refused"] == ["opponent_present", "reconnect_window", "reconnect_window"]
    assert report["over"]["detail"]["reason"] == "abandoned"
    assert report["over"]["detail"]["rating_changes"][0]["delta"] > 0


async def _next(socket, predicate, timeout: float, passed: list | None = None) -> dict:
    """The next message that satisfies `predicate`, within `timeout` seconds (a bound, not a
    measured figure: the test fails only if presence never recovers in the stated time). The
    messages passed over meanwhile go to `passed` when given."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such message in time"
        message = json.loads(await asyncio.wait_for(socket.recv(), left))
        if predicate(message):
            return message
        if passed is not None:
            passed.append(message)


def _online(seat: int, online: bool):
    return lambda m: (
        m["type"] in ("presence", "snapshot")
        and (
            (m.get("presence") if m["type"] == "presence" else m["state"]["presence"])[str(seat)]
            is online
        )
    )


def _match_over(message: dict) -> bool:
    return message["type"] == "event" and message["kind"] == "match_over"


async def _claim(socket, number: int, passed: list | None = None) -> dict:
    await socket.send(json.dumps({"type": "claim", "id": f"claim{number}"}))
    return await _next(socket, lambda m: m.get("id") == f"claim{number}", 10, passed)


async def _scenario(match_id: int, cookies, first_port: int, second_port: int, second) -> dict:
    path = f"/ws/matches/{match_id}/"
    report: dict = {"refused": []}

    def url(port):
        return f"ws://127.0.0.1:{port}{path}"

    def origin(port):
        return f"http://127.0.0.1:{port}"

    async with connect(url(first_port), origin=origin(first_port),
                       additional_headers={"Cookie": cookies[0]}) as white:  # fmt: skip
        await _next(white, lambda m: m["type"] == "snapshot", 10)
        # Black sits down through the other process.
        black = await connect(url(second_port), origin=origin(second_port),
                              additional_headers={"Cookie": cookies[1]})  # fmt: skip
        await _next(black, lambda m: m["type"] == "snapshot", 10)
        await _next(white, _online(1, True), 10)
        answer = await _claim(white, 1)
        report["refused"].append(answer.get("code"))
        # Black's process dies without a word: White sees the seat empty once its heartbeat has
        # expired, with the window counting.
        processes.kill(second)
        gone = await _next(white, _online(1, False), RECOVERY_SECONDS)
        assert gone["away_ms"]["1"] is not None and gone["reconnect_seconds"] == WINDOW_SECONDS
        answer = await _claim(white, 2)
        report["refused"].append(answer.get("code"))
        # Black comes back (through the surviving process) within the window: nothing changed.
        async with connect(url(first_port), origin=origin(first_port),
                           additional_headers={"Cookie": cookies[1]}) as back:  # fmt: skip
            snapshot = await _next(back, lambda m: m["type"] == "snapshot", 10)
            assert snapshot["state"]["match"]["status"] == "active"
            await _next(white, _online(1, True), 10)
        # ... and goes again (a clean close this time): a new window starts.
        away = await _next(white, _online(1, False), 10)
        assert away["away_ms"]["1"] < WINDOW_SECONDS * 1000
        answer = await _claim(white, 3)
        report["refused"].append(answer.get("code"))
        # After the window the claim wins the match.
        # The match's events and the claim's ack travel apart (docs/protocol.md): `match_over`
        # may come before the ack as well as after it.
        passed: list[dict] = []
        for number in range(4, 4 + 3 * WINDOW_SECONDS):
            await asyncio.sleep(1)
            answer = await _claim(white, number, passed)
            if answer["type"] == "ack":
                break
            assert answer["code"] == "reconnect_window", answer
        assert answer["type"] == "ack", answer
        over = [message for message in passed if _match_over(message)]
        report["over"] = over[0] if over else await _next(white, _match_over, 10)
    return report
