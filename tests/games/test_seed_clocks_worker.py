"""The rule pages' clocks (docs/rules.md, Platform rules) through a real Celery worker process and
real Redis: a NARDEON turn that runs out loses the match on time; an Omerta step timer that runs out
keeps the steps played and the server plays the rest of the turn."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import services
from games.models import Game, Match, Turn
from games.tasks import schedule_deadline
from nardy import Step
from tests.factories import make_user
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def _seed_clock_match(fixed_dice, time_control: str) -> Match:
    white, black = make_user(f"{time_control}_w"), make_user(f"{time_control}_b")
    match = services.match_create(creator=white, time_control=time_control)
    fixed_dice(6, 1)
    services.match_accept(user=black, match_id=match.pk)
    match.refresh_from_db()
    return match


def _expire(match: Match, *, started_before: timedelta, limit: timedelta) -> Game:
    """Move the running timer back so the deadline is half a second away, and schedule it as the
    services do after commit."""
    game = match.games.order_by("-number").first()
    started = timezone.now() - started_before
    game.turn_started_at = game.clock_started_at = started
    game.turn_deadline = started + limit
    game.save(update_fields=["turn_started_at", "clock_started_at", "turn_deadline"])
    schedule_deadline(match.pk, game.pk, game.turn_number, game.turn_deadline)
    return game


async def _events_until(socket, kind: str, timeout: float) -> list[dict]:
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        message = await socket.receive_json_from(timeout=max(0.1, deadline - time.monotonic()))
        if message["type"] == "event":
            seen.append(message)
            if message["kind"] == kind:
                return seen


async def test_a_nardeon_turn_run_out_loses_the_match_on_time(fixed_dice, celery_worker_process):
    match = await sync_to_async(_seed_clock_match)(fixed_dice, "nardeon")
    socket = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/", headers=HEADERS)
    assert (await socket.connect())[0]
    snapshot = await socket.receive_json_from()
    assert snapshot["state"]["match"]["time_control"] == "nardeon"
    assert snapshot["state"]["game"]["clock"]["reserve_ms"] == {"w": 120000, "b": 120000}
    # 59.5 s into White's turn: the 60-second limit is half a second away.
    await sync_to_async(_expire)(
        match, started_before=timedelta(seconds=59.5), limit=timedelta(seconds=60)
    )
    events = await _events_until(socket, "match_over", timeout=10)
    assert [event["kind"] for event in events] == ["match_over"]
    assert events[0]["detail"]["reason"] == "time" and events[0]["detail"]["winner_seat"] == 1
    assert events[0]["detail"]["rating_changes"][1]["delta"] > 0
    finished = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert (finished.status, finished.end_reason) == ("finished", "time")
    await socket.disconnect()


async def test_an_omerta_step_timer_run_out_keeps_the_steps_and_the_server_plays_on(
    fixed_dice, celery_worker_process
):
    match = await sync_to_async(_seed_clock_match)(fixed_dice, "omerta")
    white = await sync_to_async(lambda: match.creator)()

    def roll_and_step() -> None:
        fixed_dice(5, 3)
        services.game_roll(user=white, match_id=match.pk, version=match.version)
        version = Match.objects.get(pk=match.pk).version
        services.game_step_play(
            user=white, match_id=match.pk, version=version, step=Step(24, 19, 5)
        )

    await sync_to_async(roll_and_step)()
    socket = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/", headers=HEADERS)
    assert (await socket.connect())[0]
    snapshot = await socket.receive_json_from()
    assert snapshot["state"]["game"]["steps"] == [[24, 19, 5]]
    await sync_to_async(_expire)(
        match, started_before=timedelta(seconds=89.5), limit=timedelta(seconds=90)
    )
    events = await _events_until(socket, "turn", timeout=10)
    assert events[0]["kind"] == "timeout" and events[0]["detail"]["timeouts"] == 1
    assert events[-1]["detail"]["by_server"] is True
    assert events[-1]["detail"]["steps"] == [[24, 19, 5], [19, 16, 3]]
    turn = await sync_to_async(Turn.objects.get)(game__match=match, number=1)
    assert turn.by_server and turn.steps[0] == [24, 19, 5]
    game = await sync_to_async(lambda: match.games.get())()
    # Black's turn now has its own 90 s, from the moment White's ended.
    assert game.turn == "b" and game.turn_deadline == game.clock_started_at + timedelta(seconds=90)
    await socket.disconnect()
