"""A whole match played over real sockets (Daphne, Celery, Redis, PostgreSQL) has provably fair
dice (docs/rules.md, Platform rules): no socket message shows the server seed before the end, the
last one reveals it, and the downloaded export verifies with `python -m games.fairness verify`; one
bit changed in it fails."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone
from websockets.asyncio.client import connect

from games import services
from games.models import Match
from games.protocol import game_state
from games.services.state_rows import match_state_of
from tests.factories import make_user
from tests.integration.test_processes import session_cookie_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
MAX_COMMANDS = 3000


@pytest.fixture
def fast_site(site):
    """The session's site: its socket message limit is one a program playing a whole match stays
    under (the default is lila-ws's 100 per 20 s, a person's pace; tests/conftest.py)."""
    return site


def _next_command(match_id: int) -> tuple[int, dict] | None:
    """(seat to act, command) for the mover, from the committed state; None once it is over."""
    match = Match.objects.get(pk=match_id)
    if match.status != "active":
        return None
    game = match.games.order_by("-number").first()
    seat = game.seat_of_side(game.turn)
    if game.phase == "roll":
        return seat, {"type": "roll", "version": match.version}
    legal = game_state(match_state_of(match, game), timezone.now())["legal_steps"]
    return seat, {"type": "step", "version": match.version, "step": legal[0]}


async def play_over_sockets(url: str, origin: str, match_id: int, cookies: list[str]) -> list[dict]:
    """Both players play the match to its end through their own sockets (the first legal step
    each time: the server only offers steps that begin a complete legal turn). Returns every
    message the first player's socket received."""
    next_command = sync_to_async(_next_command)
    received: list[dict] = []
    async with (
        connect(url, origin=origin, additional_headers={"Cookie": cookies[0]}) as seat0,
        connect(url, origin=origin, additional_headers={"Cookie": cookies[1]}) as seat1,
    ):
        sockets = (seat0, seat1)

        async def drain(socket, until_id=None) -> None:
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 20))
                if socket is seat0:
                    received.append(message)
                if until_id is None and message["type"] == "snapshot":
                    return
                if message.get("id") == until_id and message["type"] in ("ack", "error"):
                    assert message["type"] == "ack", message
                    return

        for socket in sockets:
            await drain(socket)
        for number in range(MAX_COMMANDS):
            step = await next_command(match_id)
            if step is None:
                break
            seat, command = step
            await sockets[seat].send(json.dumps({**command, "id": number}))
            await drain(sockets[seat], until_id=number)
        else:
            raise AssertionError("the match did not end")
        # Let seat 0's socket receive the last events (match_over) too: until it has. (A ping's
        # pong could overtake them: events come back through Redis, the pong straight away.)
        while not any(m["type"] == "event" and m["kind"] == "match_over" for m in received):
            received.append(json.loads(await asyncio.wait_for(seat0.recv(), 20)))
    return received


def play_a_match(site, client, *, seeds=("Ana-seed", "Bogdan_seed")) -> Match:
    creator, opponent = make_user(), make_user()
    match = services.match_create(creator=creator, length=1, client_seed=seeds[0])
    services.match_accept(user=opponent, match_id=match.pk, client_seed=seeds[1])
    cookies = [
        session_cookie_for(client, creator),
        session_cookie_for(client.__class__(), opponent),
    ]
    url = f"ws://127.0.0.1:{site.port}/ws/matches/{match.pk}/"
    messages = asyncio.run(play_over_sockets(url, site.url, match.pk, cookies))
    match.refresh_from_db()
    assert match.status == "finished"
    secret = match.server_seed
    before_end = [m for m in messages if not (m["type"] == "event" and m["kind"] == "match_over")]
    revealing = [m for m in messages if m["type"] == "event" and m["kind"] == "match_over"]
    assert all(secret not in json.dumps(message) for message in before_end)
    assert revealing[0]["state"]["match"]["fairness"]["server_seed"] == secret
    return match


def verify(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.fairness", "verify", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_a_match_over_sockets_verifies_on_the_command_line(fast_site, client, tmp_path):
    site = fast_site
    match = play_a_match(site, client)
    with urllib.request.urlopen(f"{site.url}/matches/{match.pk}/export.json", timeout=10) as answer:
        text = answer.read().decode()
    export = tmp_path / "export.json"
    export.write_text(text)
    result = verify(export)
    assert result.returncode == 0, result.stdout + result.stderr
    rolls = result.stdout.count(" ok\n")
    assert rolls >= len(json.loads(text)["games"][0]["turns"]) + 1
    assert f"verified: all {rolls} rolls match" in result.stdout

    # One bit of one die of the move log: "dice": [5, 3] -> [4, 3].
    at = text.index('"dice": [', text.index('"turns"')) + len('"dice": [')
    while not text[at].isdigit():
        at += 1
    tampered = text[:at] + chr(ord(text[at]) ^ 1) + text[at + 1 :]
    assert tampered != text
    export.write_text(tampered)
    result = verify(export)
    assert result.returncode == 1 and "MISMATCH" in result.stdout, result.stdout

    # One bit of the revealed server seed.
    seed = match.server_seed
    export.write_text(text.replace(seed, seed[:-1] + format(int(seed[-1], 16) ^ 1, "x")))
    result = verify(export)
    assert result.returncode == 1 and "does not hash" in result.stdout, result.stdout

    export.write_text("{not json")
    assert verify(export).returncode == 2
