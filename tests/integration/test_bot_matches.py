"""A whole match against each level of the computer over real sockets: Daphne and a Celery worker
started as `make run` starts them, the person playing through the match socket, the bot through
its Celery tasks, a timeout on the person's side enforced by the worker, and the bot's rematch
offer at the end."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from websockets.asyncio.client import connect

from games import services
from games.models import Match, Turn
from tests.factories import make_user
from tests.games.timing import expire_in

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
MATCH_TIMEOUT = 400.0  # seconds for a whole one-point match; it takes far less


@pytest.fixture
def bot_site(site):
    """The session's site: the computer's pause is shortened there (a person's pace is not what
    is tested; tests/conftest.py, SITE_SETTINGS)."""
    return site


def session_cookie_for(client, user) -> str:
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def play_match(site, cookie: str, match_id: int, *, time_out_on_turn: int) -> dict:
    """Play the person's side until the match is over: roll, then the first legal step each
    time; on its `time_out_on_turn`-th turn the person does nothing and the turn's deadline is
    brought close, so the worker plays it. Returns what was seen."""
    seen = {"kinds": [], "timeouts": [], "bot_steps": 0, "my_turns": 0, "rematch": None}
    async with connect(
        f"ws://127.0.0.1:{site.port}/ws/matches/{match_id}/",
        origin=site.url,
        additional_headers={"Cookie": cookie},
    ) as socket:
        snapshot = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert snapshot["type"] == "snapshot"
        my_seat = snapshot["you"]["seat"]
        match_section = snapshot["state"]["match"]
        bot_seat = 1 - my_seat
        assert match_section["players"][bot_seat]["bot"] is True
        assert match_section["players"][my_seat]["bot"] is False
        state, version = snapshot["state"], snapshot["version"]
        acted_at = -1
        turns_started: set[tuple[int, int]] = set()
        waiting_for_timeout = False
        deadline = time.monotonic() + MATCH_TIMEOUT
        while time.monotonic() < deadline:
            game, section = state["game"], state.get("match") or match_section
            match_section = section
            if section["status"] == "finished":
                if section["rematch"]["offered_by"] == bot_seat:
                    seen["rematch"] = section["rematch"]
                    return seen
            elif game and game["phase"] != "over" and version > acted_at:
                mover = next(p["seat"] for p in section["players"] if p["side"] == game["turn"])
                if mover == my_seat and not waiting_for_timeout:
                    turn_key = (game["number"], game["turn_number"])
                    if turn_key not in turns_started:
                        turns_started.add(turn_key)
                        seen["my_turns"] += 1
                    if seen["my_turns"] == time_out_on_turn and not seen["timeouts"]:
                        waiting_for_timeout = True
                        match = await asyncio.to_thread(Match.objects.get, pk=match_id)
                        await asyncio.to_thread(expire_in, match, 0.3)
                    elif game["phase"] == "roll":
                        await socket.send(json.dumps({"type": "roll", "version": version}))
                        acted_at = version
                    elif game["legal_steps"]:
                        step = game["legal_steps"][0]
                        await socket.send(
                            json.dumps({"type": "step", "version": version, "step": step})
                        )
                        acted_at = version
            message = json.loads(await asyncio.wait_for(socket.recv(), 30))
            if message["type"] == "error":  # e.g. a step sent for a version just gone: again
                acted_at = -1
            elif message["type"] == "snapshot":
                state, version = message["state"], message["version"]
            elif message["type"] == "event":
                if message["version"] != version + 1:  # a gap: ask for the whole state
                    await socket.send(json.dumps({"type": "snapshot"}))
                state = {**state, **message["state"]}
                version = message["version"]
                kind = message["kind"]
                seen["kinds"].append(kind)
                if kind == "timeout":
                    seen["timeouts"].append(message["detail"])
                    waiting_for_timeout = False
                if kind == "step" and message["detail"]["side"] != _my_side(state, my_seat):
                    seen["bot_steps"] += 1
        raise AssertionError(f"the match did not end in time: {seen['kinds'][-20:]}")


def _my_side(state: dict, my_seat: int) -> str:
    return next(p["side"] for p in state["match"]["players"] if p["seat"] == my_seat)


@pytest.mark.parametrize("level", ["beginner", "club", "master"])
def test_a_whole_match_against_each_level_with_a_timeout(bot_site, client, level):
    person = make_user(f"human_{level}")
    cookie = session_cookie_for(client, person)
    match = services.match_create_vs_bot(user=person, level=level, turn_seconds=30)
    seen = asyncio.run(play_match(bot_site, cookie, match.pk, time_out_on_turn=2))
    match.refresh_from_db()
    assert match.status == "finished" and match.end_reason == "finished"
    assert match.winner_id in (person.pk, match.opponent_id)
    # The person's timeout: counted, and the worker played the turn with the engine's chooser.
    assert seen["timeouts"] and seen["timeouts"][0]["seat"] == match.seat_of(person.pk)
    by_server = Turn.objects.filter(game__match=match, player=person, by_server=True)
    assert by_server.count() == 1
    # The bot played its own turns through its tasks (never timed out).
    assert Turn.objects.filter(game__match=match, player=match.opponent, by_server=False).exists()
    assert not Turn.objects.filter(game__match=match, player=match.opponent, by_server=True)
    assert seen["bot_steps"] > 0
    # The bot offers a rematch when the match is over.
    assert seen["rematch"]["offered_by"] == match.seat_of(match.opponent_id)
