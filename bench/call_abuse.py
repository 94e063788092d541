"""What one player can take of the calls, measured the way the abuse was found:

    .venv/bin/python -m bench.call_abuse                      # both parts
    .venv/bin/python -m bench.call_abuse --part flood --sockets 29 --seconds 21
    .venv/bin/python -m bench.call_abuse --part flood --small   # ICE candidates, not SDP parts
    .venv/bin/python -m bench.call_abuse --part relays --matches 55

- **flood**: one player of an active match opens `--sockets` match sockets and sends, from all of
  them at once, the largest call frames the protocol takes (SDP parts of 3,000 characters) for
  `--seconds`, each socket just under its own message rate (SOCKET_RATE_LIMIT_MESSAGES per
  SOCKET_RATE_LIMIT_WINDOW_SECONDS, past which it is closed); printed: the frames and bytes that reached the
  opponent's page, how many were refused, and this process's CPU (sender, receiver and the site's
  consumers all run here: the real ASGI application, Redis and PostgreSQL, in-process sockets).
- **relays**: Debian's coturn started with `manage.py turnserver_conf`'s configuration
  (bench/coturn.py); one person plays `--matches` quick matches (created, accepted by someone new,
  the page's `call_join`, resigned), then allocates a relay with every credential they were given
  (bench/turn_client.py); printed: credentials given and refused, relays held, coturn's answers
  for the rest, and whether another person still gets a relay.

Throwaway embedded servers unless DATABASE_URL / REDIS_URL name others (bench/database.py).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.database import run_on_database

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
SDP_PART = "a=x" + "y" * 2997  # 3,000 characters: the protocol's largest part


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("flood", "relays", "both"), default="both")
    parser.add_argument("--sockets", type=int, default=29)
    parser.add_argument("--seconds", type=float, default=21.0)
    parser.add_argument("--matches", type=int, default=55)
    parser.add_argument("--small", action="store_true", help="flood with ICE candidates")
    arguments = parser.parse_args()
    os.environ.setdefault("DEBUG", "1")  # the development settings: no SECRET_KEY needed
    return run_on_database(run, arguments)


def run(arguments) -> int:
    if arguments.part in ("flood", "both"):
        asyncio.run(flood(arguments.sockets, arguments.seconds, small=arguments.small))
    if arguments.part in ("relays", "both"):
        relays(arguments.matches)
    return 0


def _people(*names: str):
    from accounts.models import User

    stamp = time.strftime("%H%M%S")
    return [
        User.objects.create_user(
            username=f"{name}{stamp}", email=f"{name}{stamp}@bench.invalid", password=None
        )
        for name in names
    ]


def _cookie(user) -> tuple[bytes, bytes]:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


def _active_match(white, black) -> int:
    from games import services

    match = services.match_create(creator=white, rated=False, turn_seconds=None)
    services.match_accept(user=black, match_id=match.pk)
    return match.pk


async def _socket(match_id: int, cookie):
    from channels.testing import WebsocketCommunicator

    from web.asgi import application

    socket = WebsocketCommunicator(application, f"/ws/matches/{match_id}/",
                                   headers=[*HEADERS, cookie])  # fmt: skip
    connected, _ = await socket.connect()
    assert connected
    while (await socket.receive_json_from(timeout=10))["type"] != "snapshot":
        pass
    return socket


CANDIDATE = {"candidate": "candidate:1 1 udp 2122260223 192.0.2.7 54400 typ host generation 0",
             "sdpMid": "0", "sdpMLineIndex": 0, "usernameFragment": "Ab1c"}  # fmt: skip


async def flood(sockets: int, seconds: float, *, small: bool) -> None:
    from asgiref.sync import sync_to_async
    from django.conf import settings

    white, black = await sync_to_async(_people)("floodw", "floodb")
    match_id = await sync_to_async(_active_match)(white, black)
    white_cookie, black_cookie = (
        await sync_to_async(_cookie)(white),
        await sync_to_async(_cookie)(black),
    )
    senders = [await _socket(match_id, white_cookie) for _ in range(sockets)]
    receiver = await _socket(match_id, black_cookie)
    answers: Counter[str] = Counter()
    received = {"frames": 0, "bytes": 0}
    deadline = time.monotonic() + seconds
    # 90 % of the socket's own rate, as the review's sockets kept under it.
    interval = settings.SOCKET_RATE_LIMIT_WINDOW_SECONDS / settings.SOCKET_RATE_LIMIT_MESSAGES / 0.9

    async def send_from(number: int, socket) -> None:
        sent = 0
        while time.monotonic() < deadline:
            sent += 1
            next_at = time.monotonic() + interval
            fields = ({"type": "call_ice", "candidate": CANDIDATE} if small else
                      {"type": "call_offer", "sdp": SDP_PART, "part": 0, "parts": 1})  # fmt: skip
            await socket.send_json_to({**fields, "id": f"{number}-{sent}",
                                       "session": f"flood-{number:04d}", "to": "opponent-1"})  # fmt: skip
            while (answer := await socket.receive_json_from(timeout=30))["type"] not in (
                "ack", "error"
            ):  # fmt: skip
                pass
            answers[answer.get("code", "ack")] += 1
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))

    async def receive() -> None:
        while True:
            text = await receiver.receive_from(timeout=60)
            if '"call_offer"' in text or '"call_ice"' in text:
                received["frames"] += 1
                received["bytes"] += len(text.encode())

    cpu, wall = time.process_time(), time.perf_counter()
    receiving = asyncio.create_task(receive())
    await asyncio.gather(*(send_from(n, s) for n, s in enumerate(senders)))
    await asyncio.sleep(1.0)  # the last relayed frames' hop to the receiver
    receiving.cancel()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"\nflood: {sockets} sockets of one player, {seconds:g} s, "
          f"{'ICE candidates' if small else 'SDP parts of 3,000 characters'}, limits "
          f"{settings.CALL_SIGNALS_PER_WINDOW} frames and {settings.CALL_SIGNAL_BYTES_PER_WINDOW:,}"
          f" bytes per {settings.CALL_WINDOW_SECONDS:g} s per user and match")  # fmt: skip
    print(f"  sent {sum(answers.values()):,} frames: {dict(answers)}")
    print(f"  reached the opponent's page: {received['frames']:,} frames, "
          f"{received['bytes']:,} bytes")  # fmt: skip
    print(f"  this process: {cpu:.1f} s CPU in {wall:.1f} s (senders, receiver and the site)")
    for socket in (*senders, receiver):
        await socket.disconnect()


def relays(matches: int) -> None:
    from django.conf import settings

    from bench.coturn import running_coturn
    from bench.turn_client import TurnError, allocate

    settings.CALL_TURN_SECRET = "bench-call-abuse"
    with tempfile.TemporaryDirectory(prefix="coturn-") as folder:
        with running_coturn(Path(folder)) as port:
            settings.CALL_TURN_URLS = [f"turn:127.0.0.1:{port}?transport=udp"]
            farmer, *others = _people("farm", "honw", "honb")
            given, refusals = asyncio.run(_quick_matches(farmer, matches))
            held, answers = [], Counter()
            for credentials in given:
                try:
                    held.append(allocate("127.0.0.1", port, credentials["username"],
                                         credentials["credential"]))  # fmt: skip
                except TurnError as refusal:
                    answers[f"{refusal.code} {refusal.reason}"] += 1
            honest = asyncio.run(_join_elsewhere(*others))
            try:
                other = allocate("127.0.0.1", port, honest["username"], honest["credential"])
                other.release()
                elsewhere = "a relay"
            except TurnError as refusal:
                elsewhere = f"refused: {refusal.code} {refusal.reason}"
            print(f"\nrelays: one person, {matches} quick matches, coturn user-quota and "
                  f"total-quota as generated")  # fmt: skip
            print(f"  credentials given: {len(given)}; call_join refused: {dict(refusals)}")
            print(f"  relays held at once with them: {len(held)}; the rest: {dict(answers)}")
            print(f"  another person's call meanwhile: {elsewhere}")
            for allocation in held:
                allocation.release()


async def _quick_matches(person, matches: int):
    from asgiref.sync import sync_to_async

    from games import services

    cookie = await sync_to_async(_cookie)(person)
    given, refusals = [], Counter()
    for number in range(matches):
        (opponent,) = await sync_to_async(_people)(f"q{number}-")
        match_id = await sync_to_async(_active_match)(person, opponent)
        socket = await _socket(match_id, cookie)
        await socket.send_json_to({"type": "call_join", "id": "join"})
        while (answer := await socket.receive_json_from(timeout=10)).get("id") != "join":
            pass
        await socket.disconnect()
        if answer["type"] == "ack":
            given.append(answer["ice_servers"][-1])
        else:
            refusals[answer["code"]] += 1
        await sync_to_async(services.match_resign)(user=person, match_id=match_id, left_table=False)
    return given, refusals


async def _join_elsewhere(white, black) -> dict:
    from asgiref.sync import sync_to_async

    match_id = await sync_to_async(_active_match)(white, black)
    socket = await _socket(match_id, await sync_to_async(_cookie)(white))
    await socket.send_json_to({"type": "call_join", "id": "join"})
    while (answer := await socket.receive_json_from(timeout=10)).get("id") != "join":
        pass
    await socket.disconnect()
    return answer["ice_servers"][-1]


if __name__ == "__main__":
    sys.exit(main())
