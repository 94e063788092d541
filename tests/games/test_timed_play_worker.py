"""Timed play through a real Celery worker process and real Redis (not eager mode)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import services
from games.models import Match, Turn
from tests.factories import make_user
from tests.games.conftest import cookie_for
from tests.games.timing import expire_in
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@pytest.fixture
def timed_match(fixed_dice):
    white, black = make_user("tw"), make_user("tb")
    match = services.match_create(creator=white, turn_seconds=30)
    fixed_dice(6, 1)
    services.match_accept(user=black, match_id=match.pk)
    match.refresh_from_db()
    return match


async def events_until(socket, predicate, timeout: float) -> list[dict]:
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        message = await socket.receive_json_from(timeout=max(0.1, deadline - time.monotonic()))
        if message["type"] == "event":
            seen.append(message)
            if predicate(message):
                return seen


async def test_a_timed_out_turn_is_played_by_the_worker_and_seen_live(
    timed_match, celery_worker_process
):
    socket = WebsocketCommunicator(application, f"/ws/matches/{timed_match.pk}/", headers=HEADERS)
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from())["type"] == "snapshot"
    game = await sync_to_async(expire_in)(timed_match, 1.0)
    events = await events_until(socket, lambda event: event["kind"] == "turn", timeout=10)
    seen_at = timezone.now()
    lateness = (seen_at - game.turn_deadline).total_seconds()
    assert 0 <= lateness < 2.0, lateness
    kinds = [event["kind"] for event in events]
    assert kinds[0] == "timeout" and "rolled" in kinds
    assert events[-1]["detail"]["by_server"] is True
    assert events[0]["detail"] == {"seat": 0, "side": "w", "timeouts": 1}
    turn = await sync_to_async(Turn.objects.get)(game=game, number=1)
    assert turn.by_server and turn.finished_at >= game.turn_deadline
    await socket.disconnect()


async def test_three_timeouts_end_the_match_through_the_worker(timed_match, celery_worker_process):
    await sync_to_async(Match.objects.filter(pk=timed_match.pk).update)(timeouts_creator=2)
    socket = WebsocketCommunicator(application, f"/ws/matches/{timed_match.pk}/", headers=HEADERS)
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    await sync_to_async(expire_in)(timed_match, 0.5)
    events = await events_until(socket, lambda event: event["kind"] == "match_over", timeout=10)
    # A rated match: the worker's transaction that ends it also applies the ratings
    # (ratings/services.py). New players, equal ratings, 1 point: 4 · 5 · 1 · ½ = 10 each way.
    assert events[-1]["detail"] == {
        "winner_seat": 1,
        "reason": "timeouts",
        "aborted_by": None,
        "rating_changes": [
            {"before": 1500, "after": 1490, "delta": -10},
            {"before": 1500, "after": 1510, "delta": 10},
        ],
    }
    match = await sync_to_async(Match.objects.get)(pk=timed_match.pk)
    assert (match.status, match.end_reason, match.timeouts_creator) == ("finished", "timeouts", 3)
    await socket.disconnect()


async def test_a_reconnecting_player_gets_the_right_clocks(timed_match, client):
    white = await sync_to_async(lambda: timed_match.creator)()
    cookie = await sync_to_async(cookie_for)(client, white)
    game = await sync_to_async(lambda: timed_match.games.get())()
    # 12 seconds of this turn have gone by.
    game.turn_started_at = timezone.now() - timedelta(seconds=12)
    game.turn_deadline = game.turn_started_at + timedelta(seconds=30)
    await sync_to_async(game.save)()
    for _ in range(2):  # connect, drop, reconnect
        socket = WebsocketCommunicator(
            application, f"/ws/matches/{timed_match.pk}/", headers=[*HEADERS, cookie]
        )
        assert (await socket.connect())[0]
        # The previous socket's leaving may be announced to this one first.
        while (snapshot := await socket.receive_json_from())["type"] == "presence":
            pass
        clock = snapshot["state"]["game"]["clock"]
        expected = (game.turn_deadline - timezone.now()).total_seconds() * 1000
        assert abs(clock["turn_ms_left"] - expected) < 1500, (clock, expected)
        assert clock["running"] is True and clock["reserve_ms"] == {"w": 0, "b": 0}
        await socket.disconnect()
