"""Thousands of generated hostile frames through a real Daphne.

From a player (the one to move) and from a spectator: JSON of any shape and depth, huge and
non-finite numbers, long and odd Unicode strings, wrong types in every field of every command,
binary frames; chat messages too long, empty, with markup or control characters, showing nothing
(zero-width, combining, filler characters) or flipping what follows (direction controls), and
chat_mute with every wrong type. After each frame the socket must still answer a ping; the
match's version, board, chat and mutes must be unchanged unless the frame was a valid command
(then the sender got an ack, carrying the command's events: the player's socket asks for that;
every event reaches each socket once, in order; a chat message adds one row, always a text that
shows, and leaves the match alone); at the end the spectator count is right (no ghost sockets).
The site socket's bell commands get the same treatment (only the user's own ids change anything).
Seeded: a failure names the seed and the frame.
"""

from __future__ import annotations

import asyncio
import json
import random

import orjson
import pytest
from asgiref.sync import sync_to_async
from websockets.asyncio.client import connect

from chat.models import MAX_CHAT_LENGTH, ChatMessage, ChatMute
from config.showable_text import is_showable
from games import services
from games.consumers import MATCH_COMMANDS
from games.models import Game, Match
from realtime.commands import Sender
from tests.factories import make_user
from tests.integration.test_processes import session_cookie_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# Every command the match socket registers (games/consumers.py, chat/consumers.py,
# calls/consumers.py).
COMMAND_TYPES = MATCH_COMMANDS.types
CALL_TYPES = frozenset(kind for kind in COMMAND_TYPES if kind.startswith("call_"))

SEED = 20261201
PLAYER_FRAMES = 2000
SPECTATOR_FRAMES = 1000
ODD_STRINGS = ["", "\u0000", "\u202e\u0644\u0627", "🎲" * 40, "ш" * 70, "x" * 65, "\ufeff",
               "<script>", "' OR 1=1 --", "\\ud800"]  # fmt: skip
# Chat texts: fine ones, 140 and 141 characters, markup, control characters, odd Unicode, and
# texts that show nothing or flip what follows (config/showable_text.py: refused).
CHAT_TEXTS = ["gg", "ш" * 140, "ш" * 141, "x" * 4000, "<img src=x onerror=alert(1)>", "a\u0000b",
              " ", "\u202e\u0644\u0627", "🎲" * 70, "\r\n", "\\ud83c", "\u200b\u200b\u200b",
              "\ufeff", "\u0301\u0308\u0301", "gg\u202e", "\u2066wp\u2069", "\u3164\u3164",
              "\u2800", "\U000e0067\U000e007f", "\u200d\ufe0f", "good\u200bgame",
              "\U0001f468\u200d\U0001f469\u200d\U0001f467"]  # fmt: skip
ODD_NUMBERS = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", str(2**64), str(-(2**70)),
               "1e308", "-0", "0.5", str(2**53), str(2**53 + 1), "1234567890" * 3]  # fmt: skip


def any_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, 1, -1, 24, 25, 7, 2**31, -(2**63), 2**53])
    if kind == 2:
        return rng.uniform(-1e6, 1e6)
    if kind == 3:
        return rng.choice(ODD_STRINGS)
    if kind == 4:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(20)))
    if kind in (5, 6):
        return [any_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "id", "step", "version", "client_seed", "x", "text", "phrase", "mute"]
    return {rng.choice(keys): any_value(rng, depth + 1)
            for _ in range(rng.randrange(4))}  # fmt: skip


def hostile_seed(rng: random.Random):
    """A client seed field (games/fairness): sometimes right, mostly of a wrong shape."""
    return rng.choice([
        "good-seed_1", "x" * 64, "x" * 65, "a:b", "", " ", "seed\n", "ш", "🎲", None, 7, 2**64,
        ["good"], {"seed": "good"}, any_value(rng), "s" * 3000,  # 3000: under the 4 KiB frame limit
    ])  # fmt: skip


TOO_LARGE = 256 * 1024


def frame(rng: random.Random, version: int, types: list[str]) -> str | bytes:
    """One hostile frame (text or bytes)."""
    kind = rng.randrange(10)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 1:
        depth = rng.choice([10, 500, 1023, 1025, 1500, 2100])
        return "[" * depth + "]" * depth
    if kind == 2:
        return json.dumps(any_value(rng))
    if kind == 3:  # a raw number where the protocol wants something else
        field = rng.choice(["id", "version", "step", "type"])
        number = rng.choice(ODD_NUMBERS)
        return f'{{"type": "{rng.choice(types)}", "{field}": {number}, "version": {version}}}'
    if kind == 4:
        return rng.choice(
            [
                '{"type": "roll"',
                "{}",
                "null",
                '"roll"',
                "[]",
                "\ufeff{}",
                "{" * 3,
                '{"type": "chat", "text": "\\ud83c lone"}',
            ]
        )  # a lone surrogate
    # A command of a real type with fields of random types or values (sometimes right).
    command = {"type": rng.choice(types)}
    if rng.random() < 0.8:
        command["version"] = rng.choice([version, version, version - 1, -1, str(version), None,
                                         any_value(rng), 2**64])  # fmt: skip
    if rng.random() < 0.7:
        command["id"] = rng.choice([rng.randrange(1000), "c", any_value(rng), 2**64, "x" * 65])
    if command["type"] == "step" or rng.random() < 0.3:
        command["step"] = rng.choice([
            [rng.randrange(-1, 26), rng.randrange(-1, 26), rng.randrange(0, 8)],
            any_value(rng), [24, 20], [24.0, 20, 4], [[24], 20, 4], "24-20",
        ])  # fmt: skip
    if command["type"] == "chat" or rng.random() < 0.1:  # a chat message, often hostile
        field = rng.choice(["text", "text", "phrase", "both", None])
        if field in ("text", "both"):
            command["text"] = rng.choice(CHAT_TEXTS + [any_value(rng)])
        if field in ("phrase", "both"):
            command["phrase"] = rng.choice(["good_luck", "thanks", "", "GOOD_LUCK", any_value(rng)])
    if command["type"] == "chat_mute" or rng.random() < 0.05:
        command["mute"] = rng.choice([True, False, 1, 0, "true", None, [True], any_value(rng)])
    if command["type"] in ("client_seed", "rematch") or rng.random() < 0.2:
        command["client_seed"] = hostile_seed(rng)
    if command["type"] in CALL_TYPES or rng.random() < 0.05:
        command.update(call_fields(rng))
    if rng.random() < 0.1:
        command["x" * rng.randrange(1, 300)] = any_value(rng)
    text = json.dumps(command, ensure_ascii=rng.random() < 0.5)
    # Now and then too large: past our 4 KiB, within Daphne's 1 MiB message cap (beyond it
    # Daphne drops the connection instead of passing the frame on; a 3,000-character call
    # field times 200 went past it).
    return text if rng.random() < 0.95 else (text * 200)[:TOO_LARGE]


GOOD_SDP = "v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
GOOD_CANDIDATE = {"candidate": "candidate:1 1 udp 2122260223 192.0.2.7 54400 typ host",
                  "sdpMid": "0", "sdpMLineIndex": 0, "usernameFragment": "Ab1c"}  # fmt: skip


def call_fields(rng: random.Random) -> dict:
    """Signalling fields (docs/protocol.md "Calls"), each sometimes right, mostly hostile: huge
    and binary-looking SDPs, nested and extra-keyed candidates, wrong-typed flags and parts."""
    fields = {}
    if rng.random() < 0.9:
        fields["session"] = rng.choice([
            "page-one", "page-one", "short", "x" * 41, "a b c d", "ш" * 10, None, 7, ["page-one"],
            any_value(rng),
        ])  # fmt: skip
    if rng.random() < 0.7:
        fields["to"] = rng.choice(["page-two", "page-two", "", "x" * 3000, {"to": "page-two"}])
    if rng.random() < 0.7:
        fields["sdp"] = rng.choice([
            GOOD_SDP, GOOD_SDP, "x" * 3000, "x" * 3001, "v=0\x00", "v=0\u202e", "🎲" * 99,
            [GOOD_SDP], any_value(rng),
        ])  # fmt: skip
    if rng.random() < 0.7:
        fields["part"] = rng.choice([0, 0, 1, 3, 4, -1, 1.0, True, "0", None, any_value(rng)])
        fields["parts"] = rng.choice([1, 1, 2, 4, 5, 0, 2**64, "1", [1], any_value(rng)])
    if rng.random() < 0.6:
        fields["candidate"] = rng.choice([
            GOOD_CANDIDATE, GOOD_CANDIDATE, {"candidate": ""}, {**GOOD_CANDIDATE, "x": 1},
            {**GOOD_CANDIDATE, "sdpMid": {"deep": [[["x"]]]}}, {"candidate": "c" * 513},
            {**GOOD_CANDIDATE, "sdpMLineIndex": 2**40}, [GOOD_CANDIDATE], "candidate:1",
            {"candidate": NESTED_CANDIDATE}, any_value(rng),
        ])  # fmt: skip
    for flag in ("audio", "video"):
        if rng.random() < 0.7:
            fields[flag] = rng.choice([True, False, True, 1, 0, "true", None, [True]])
    return fields


NESTED_CANDIDATE = [[[[[[[["candidate:1"]]]]]]]]


@pytest.fixture
def slow_site(sites):
    """Another site process whose reconnect window and computer never run out while the fuzzers
    send (an hour each): every claim must be refused, and the computer must stay to move."""
    return sites.another(
        RECONNECT_WINDOW_SECONDS="3600", BOT_THINK_SECONDS="3600", BOT_STEP_SECONDS="3600"
    )


def test_hostile_frames_change_nothing_and_every_socket_lives(slow_site, client):
    site = slow_site
    # "Confirm my turn" on: a hostile `confirm` meets turns waiting for it and turns that are not.
    white, black = make_user("fuzz_w", confirm_turn=True), make_user("fuzz_b", confirm_turn=True)
    # Untimed: no server move may change the match while the frames are sent. With the cube,
    # so hostile doubles, takes and drops meet a match where they can happen.
    match = services.match_create(
        creator=white, turn_seconds=None, rated=False, length=3, doubling_cube=True
    )
    services.match_accept(user=black, match_id=match.pk)
    cookie = session_cookie_for(client, white if _white_to_move(match.pk) else black)
    summary = asyncio.run(_fuzz(site, match.pk, cookie))
    assert summary["frames"] == PLAYER_FRAMES + SPECTATOR_FRAMES
    assert summary["spectators"] == 1
    # The generator really exercised refusals and real commands alike.
    assert summary["errors"] > PLAYER_FRAMES and summary["acks"] >= 1, summary
    assert summary["chat"] >= 1, summary  # some chat commands were valid and stored
    assert summary["claims"] == 2 * len(CLAIM_FRAMES), summary
    assert summary["carried"] >= 1, summary  # acks carried their commands' events


CLIENT_SEED_FRAMES = 400


def test_hostile_client_seeds_on_an_open_challenge_change_nothing(site, client):
    """The creator's `client_seed` command while the challenge is open (provably fair dice):
    malformed, wrong-typed, nested, huge and replayed seeds from the creator, and any seed from a
    spectator, change nothing; a well-formed one from the creator is acked and stored."""
    creator = make_user("seed_fuzz")
    match = services.match_create(creator=creator, turn_seconds=None, rated=False)
    cookie = session_cookie_for(client, creator)
    summary = asyncio.run(_fuzz_client_seeds(site, match.pk, cookie))
    assert summary["acks"] >= 10 and summary["errors"] > CLIENT_SEED_FRAMES // 2, summary


def _seed_state(match_id: int) -> tuple[int, str, str]:
    match = Match.objects.get(pk=match_id)
    return match.version, match.client_seed_creator, match.status


async def _fuzz_client_seeds(site, match_id: int, cookie: str) -> dict[str, int]:
    from games.fairness import is_client_seed

    rng = random.Random(SEED + 19)
    url = f"ws://127.0.0.1:{site.port}/ws/matches/{match_id}/"
    read_state = sync_to_async(_seed_state)
    counts = {"acks": 0, "errors": 0}
    async with (
        connect(url, origin=site.url, additional_headers={"Cookie": cookie}) as creator,
        connect(url, origin=site.url) as spectator,
    ):
        for socket in (creator, spectator):
            while json.loads(await socket.recv())["type"] != "snapshot":
                pass
        last_good = None
        for number in range(CLIENT_SEED_FRAMES):
            socket = spectator if number % 5 == 4 else creator
            seed = last_good if last_good and number % 7 == 0 else hostile_seed(rng)  # replays
            command = {"type": "client_seed", "id": number, "client_seed": seed}
            if number % 11 == 0:
                command = {"type": "client_seed", "id": number}  # the field missing
            before = await read_state(match_id)
            sent = json.dumps(command)
            await socket.send(sent)
            reply = json.loads(await asyncio.wait_for(socket.recv(), 10))
            while reply.get("id") != number and reply["type"] in ("event", "presence"):
                reply = json.loads(await asyncio.wait_for(socket.recv(), 10))
            after = await read_state(match_id)
            good = socket is creator and "client_seed" in command and is_client_seed(seed)
            assert reply.get("code") != "internal", (number, sent, reply)
            if good:
                assert reply["type"] == "ack", (number, sent, reply)
                assert after[1] == seed and after[0] == before[0] + 1, (number, sent)
                last_good = seed
                counts["acks"] += 1
            else:
                assert reply["type"] == "error", (number, sent, reply)
                assert after == before, (number, sent)
                counts["errors"] += 1
    return counts


OPEN_CHAT_FRAMES = 300
# The window the site runs with below: shorter than the fuzz on the open challenge lasts.
START_WINDOW_SECONDS = 5


def test_no_chat_before_the_start_and_no_claim_from_time_before_it(sites, client):
    """Hostile chat frames on an open challenge, from its creator and from a signed-in watcher
    (texts, phrases, wrong types, markup, too long): every one refused, nothing stored, the
    challenge unchanged; the valid ones with `match_not_started`. The challenge waited longer
    than the reconnect window with the watcher's socket on it; once accepted, the creator's
    hostile claims right away are all refused (the acceptor's page has not even opened): time
    before the start never counts. Both failed before the fix (the chat was stored; the claims
    won the match)."""
    # Another site process: a reconnect window shorter than the fuzz lasts.
    site = sites.another(RECONNECT_WINDOW_SECONDS=str(START_WINDOW_SECONDS))
    creator, acceptor, watcher = (make_user(name) for name in ("oc_c", "oc_a", "oc_w"))
    match = services.match_create(creator=creator, rated=True)
    cookies = (session_cookie_for(client, creator),
               session_cookie_for(client.__class__(), watcher))  # fmt: skip

    def accept() -> None:
        services.match_accept(user=acceptor, match_id=match.pk)

    summary = asyncio.run(_fuzz_before_the_start(site, match.pk, cookies, accept))
    assert summary["frames"] == OPEN_CHAT_FRAMES and summary["acks"] == 0, summary
    assert summary["match_not_started"] >= 10, summary
    assert summary["claims"] == 2 * len(CLAIM_FRAMES), summary


def _open_state(match_id: int) -> tuple[int, str, int]:
    match = Match.objects.get(pk=match_id)
    return match.version, match.status, ChatMessage.objects.filter(match_id=match_id).count()


async def _fuzz_before_the_start(site, match_id: int, cookies, accept) -> dict[str, int]:
    rng = random.Random(SEED + 25)
    url = f"ws://127.0.0.1:{site.port}/ws/matches/{match_id}/"
    read_state = sync_to_async(_open_state)
    counts = {"frames": 0, "acks": 0, "match_not_started": 0}
    async with (
        connect(url, origin=site.url, additional_headers={"Cookie": cookies[0]}) as creator,
        connect(url, origin=site.url, additional_headers={"Cookie": cookies[1]}) as watcher,
    ):
        for socket in (creator, watcher):
            while json.loads(await socket.recv())["type"] != "snapshot":
                pass
        watched_since = asyncio.get_running_loop().time()
        before = await read_state(match_id)
        assert before[1:] == ("open", 0)
        for number in range(OPEN_CHAT_FRAMES):
            socket = watcher if number % 3 == 2 else creator
            sent = frame(rng, before[0], ["chat"])
            await socket.send(sent)
            await socket.send(json.dumps({"type": "ping", "id": f"o{number}"}))
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if message["type"] == "pong" and message.get("id") == f"o{number}":
                    break
                counts["acks"] += message["type"] == "ack"
                counts["match_not_started"] += message.get("code") == "match_not_started"
                assert message["type"] not in ("ack", "chat"), (number, sent, message)
                assert message.get("code") != "internal", (number, sent, message)
            counts["frames"] += 1
            assert await read_state(match_id) == before, (number, sent)
        waited = asyncio.get_running_loop().time() - watched_since
        await asyncio.sleep(max(0.0, START_WINDOW_SECONDS + 0.5 - waited))
        await sync_to_async(accept)()
        counts["claims"] = await _hostile_claims(creator, watcher, match_id, sync_to_async(_state))
    return counts


def _white_to_move(match_id: int) -> bool:
    game = Game.objects.get(match_id=match_id, number=1)
    return game.seat_of_side(game.turn) == 0


def _state(match_id: int) -> tuple[int, list[int], list[int] | None, int, int]:
    match = Match.objects.get(pk=match_id)
    game = match.games.order_by("-number").first()
    chat = ChatMessage.objects.filter(match_id=match_id).count()
    mutes = ChatMute.objects.filter(match_id=match_id).count()
    return match.version, list(game.board), game.dice, chat, mutes


def _type_of(sent: str | bytes) -> object:
    """The frame's type as the server reads it: with orjson, as realtime/socket.py does. It
    refuses nesting past 1024 levels without using Python's stack. json.loads recursed to the
    interpreter's limit on the 1,500- and 2,100-deep frames, and a finalizer that the garbage
    collector ran down there could not even report its error (pytest failed the test on it)."""
    try:
        decoded = orjson.loads(sent)
    except orjson.JSONDecodeError:  # not JSON, or nested past the parser's depth
        return None
    return decoded.get("type") if isinstance(decoded, dict) else None


CLAIM_FRAMES = [
    {"type": "claim"},
    {"type": "claim", "id": "c1"},
    {"type": "claim", "id": "c1"},  # replayed
    {"type": "claim", "id": 2**64},
    {"type": "claim", "id": [[["deep"]]], "version": "x"},
    {"type": "claim", "seat": 1, "winner": 0, "x" * 200: [1] * 50},
    {"type": "claim", "version": -1, "step": [24, 20, 4]},
]


async def _hostile_claims(player, spectator, match_id: int, read_state) -> int:
    """Claims an opponent who is away but still within the reconnect window, malformed, replayed,
    and from a spectator: each refused with a clear code, nothing changed."""
    refused = 0
    for number, claim in enumerate(CLAIM_FRAMES):
        for socket, codes in (
            (player, {"reconnect_window", "bad_field"}),
            (spectator, {"not_a_player", "bad_field"}),
        ):
            before = await read_state(match_id)
            await socket.send(json.dumps(claim))
            await socket.send(json.dumps({"type": "ping", "id": f"claim{number}"}))
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if message["type"] == "pong":
                    break
                if message["type"] == "error":
                    assert message["code"] in codes, (claim, message)
                    refused += 1
                assert message["type"] != "ack", (claim, message)
            assert await read_state(match_id) == before, claim
    return refused


async def _fuzz(site, match_id: int, cookie: str) -> dict[str, int]:
    rng = random.Random(SEED)
    url = f"ws://127.0.0.1:{site.port}/ws/matches/{match_id}/"
    read_state = sync_to_async(_state)
    counts = {"frames": 0, "errors": 0, "acks": 0, "chat": 0, "carried": 0}
    # The player's acks carry its commands' events (docs/protocol.md "ack"); the spectator's
    # choice is malformed (two values), so it is not taken.
    async with (
        connect(
            f"{url}?ack_events=1", origin=site.url, additional_headers={"Cookie": cookie}
        ) as player,
        connect(f"{url}?ack_events=%00&ack_events=1", origin=site.url) as spectator,
    ):
        versions = {}
        for socket in (player, spectator):
            while (message := json.loads(await socket.recv()))["type"] != "snapshot":
                pass
            versions[socket] = message["version"]
        counts["claims"] = await _hostile_claims(player, spectator, match_id, read_state)
        # Keep the match going (a claim is refused anyway: the window is an hour).
        player_types = sorted(COMMAND_TYPES - {"resign", "leave", "abort"})
        plan = [(player, player_types)] * PLAYER_FRAMES + [
            (spectator, sorted(COMMAND_TYPES))
        ] * SPECTATOR_FRAMES
        for number, (socket, types) in enumerate(plan):
            before = await read_state(match_id)
            sent = frame(rng, before[0], types)
            await socket.send(sent)
            await socket.send(json.dumps({"type": "ping", "id": f"p{number}"}))
            acked = False
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if message["type"] == "pong" and message.get("id") == f"p{number}":
                    break
                if message["type"] == "chat":  # shown as text: stored as sent, never longer
                    text = message["message"]["text"]
                    assert len(text) <= MAX_CHAT_LENGTH
                    # A text message always shows something (a quick phrase has no text).
                    assert not text or is_showable(text), (SEED, number, sent, message)
                    continue
                acked |= message["type"] == "ack"
                counts["errors"] += message["type"] == "error"
                # Events, whether in an ack or alone, reach each socket once and in order.
                carried = message.get("events", []) if message["type"] == "ack" else []
                assert socket is player or not carried, (SEED, number, sent, message)
                counts["carried"] += len(carried)
                for event in carried + ([message] if message["type"] == "event" else []):
                    assert event["version"] == versions[socket] + 1, (SEED, number, message)
                    versions[socket] = event["version"]
                assert message.get("code") != "internal", (SEED, number, sent, message)
            counts["frames"] += 1
            counts["acks"] += acked
            after = await read_state(match_id)
            kind = _type_of(sent)
            if not acked:
                assert after == before, (SEED, number, sent)
            elif kind in CALL_TYPES:  # signalling is relayed, never stored: nothing changes
                assert socket is player and after == before, (SEED, number, sent)
            elif kind in ("chat", "chat_mute"):  # not versioned: the match is untouched
                assert socket is player and after[:3] == before[:3], (SEED, number, sent)
                if kind == "chat":
                    assert after[3] == before[3] + 1, (SEED, number, sent)
                    counts["chat"] += 1
            else:
                assert socket is player and after[0] > before[0], (SEED, number, sent)
                assert versions[player] == after[0], (SEED, number, sent)  # carried in the ack
        await spectator.send(json.dumps({"type": "snapshot"}))
        while (message := json.loads(await spectator.recv()))["type"] != "snapshot":
            pass
        counts["spectators"] = message["state"]["spectators"]
    return counts


CALL_FRAMES = 600


def test_hostile_signalling_reaches_only_the_opponent_and_nothing_after_the_end(site, client):
    """Signalling frames (docs/protocol.md "Calls") of every shape from a player (two sockets of
    theirs, sharing one signalling budget), a spectator and an anonymous viewer: huge, nested,
    wrong-typed, extra-keyed. Every frame gets an ack or an error (never `internal`) and the
    sockets live; past the player's budget, well-formed frames get `rate_limited` on the socket
    that sent them; the opponent's page gets exactly the frames
    acked from the player, each with its own fields as sent (unknown keys dropped); spectators
    get no call frame at all, nor anything but refusals; the match is unchanged. After the
    player resigns, every call command, however well formed, is refused with
    `match_not_active` and reaches nobody."""
    white, black, watcher = make_user("callfz_w"), make_user("callfz_b"), make_user("callfz_s")
    match = services.match_create(creator=white, turn_seconds=None, rated=False)
    services.match_accept(user=black, match_id=match.pk)
    cookies = [session_cookie_for(client.__class__(), user) for user in (white, black, watcher)]
    summary = asyncio.run(_fuzz_calls(site, match.pk, cookies, white))
    assert summary["frames"] == CALL_FRAMES, summary
    assert summary["acks"] >= 20 and summary["bad_field"] > CALL_FRAMES // 3, summary
    assert summary["relayed"] == summary["acks_relayed"], summary
    assert summary["not_a_player"] > 0 and summary["after_the_end"] == 6, summary
    assert summary["rate_limited"] > 0, summary  # the two sockets' budget is one


async def _fuzz_calls(site, match_id: int, cookies, white) -> dict[str, int]:
    rng = random.Random(SEED + 32)
    url = f"ws://127.0.0.1:{site.port}/ws/matches/{match_id}/"
    read_state = sync_to_async(_state)
    counts = {"frames": 0, "acks": 0, "acks_relayed": 0, "relayed": 0, "bad_field": 0,
              "not_a_player": 0, "rate_limited": 0}  # fmt: skip
    async with (
        connect(url, origin=site.url, additional_headers={"Cookie": cookies[0]}) as player,
        connect(url, origin=site.url, additional_headers={"Cookie": cookies[0]}) as player_too,
        connect(url, origin=site.url, additional_headers={"Cookie": cookies[1]}) as opponent,
        connect(url, origin=site.url, additional_headers={"Cookie": cookies[2]}) as watcher,
        connect(url, origin=site.url) as anonymous,
    ):
        for socket in (player, player_too, opponent, watcher, anonymous):
            while json.loads(await socket.recv())["type"] != "snapshot":
                pass
        before = await read_state(match_id)
        acked: list[dict] = []
        for number in range(CALL_FRAMES):
            socket = [player, player_too, player, watcher, anonymous][number % 5]
            command = {"type": rng.choice(sorted(CALL_TYPES)), "id": number, **call_fields(rng)}
            sent = json.dumps(command) if rng.random() < 0.97 else json.dumps(command) * 50
            await socket.send(sent)
            await socket.send(json.dumps({"type": "ping", "id": f"c{number}"}))
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if message == {"type": "pong", "id": f"c{number}"}:
                    break
                assert not message["type"].startswith("call_"), (number, sent, message)
                assert message.get("code") != "internal", (number, sent, message)
                if message["type"] == "ack":
                    assert socket in (player, player_too), (number, sent, message)
                    counts["acks"] += 1
                    if command["type"] != "call_join":  # relayed: the command's own fields
                        fields = MATCH_COMMANDS.entry(command["type"]).command.wire_fields()
                        acked.append({"type": command["type"]}
                                     | {f.name: command[f.name] for f in fields})  # fmt: skip
                counts["bad_field"] += message.get("code") == "bad_field"
                counts["not_a_player"] += message.get("code") == "not_a_player"
                if message.get("code") == "rate_limited":
                    assert socket in (player, player_too), (number, sent, message)
                    counts["rate_limited"] += 1
            counts["frames"] += 1
        counts["acks_relayed"] = len(acked)
        relayed = await _calls_until_pong(opponent, "o")
        assert relayed == acked  # in order, each as sent
        counts["relayed"] = len(relayed)
        for socket in (watcher, anonymous):
            assert await _calls_until_pong(socket, "s") == []
        assert await read_state(match_id) == before
        # The end: a resignation, then well-formed frames are all refused, from a fresh socket
        # of the player (past the player's signalling budget or not: a finished match is
        # refused first).
        await sync_to_async(services.match_resign)(user=white, match_id=match_id, left_table=False)
        counts["after_the_end"] = 0
        good = {"session": "page-one", "to": "page-two", "sdp": GOOD_SDP, "part": 0, "parts": 1,
                "candidate": GOOD_CANDIDATE, "audio": True, "video": True}  # fmt: skip
        async with connect(url, origin=site.url, additional_headers={"Cookie": cookies[0]}) as late:
            while json.loads(await late.recv())["type"] != "snapshot":
                pass
            for kind in sorted(CALL_TYPES):
                await late.send(json.dumps({"type": kind, "id": kind, **good}))
                while (message := json.loads(await asyncio.wait_for(late.recv(), 10))).get(
                    "id"
                ) != kind:
                    pass
                assert message.get("code") == "match_not_active", (kind, message)
                counts["after_the_end"] += 1
        assert await _calls_until_pong(opponent, "end") == []
    return counts


async def _calls_until_pong(socket, mark: str) -> list[dict]:
    """The call frames a socket got before the pong of a ping sent now."""
    await socket.send(json.dumps({"type": "ping", "id": mark}))
    got = []
    while (message := json.loads(await asyncio.wait_for(socket.recv(), 10))) != {
        "type": "pong",
        "id": mark,
    }:
        if message["type"].startswith("call_"):
            got.append(message)
    return got


BOT_MATCH_FRAMES = 500


def test_hostile_frames_in_a_match_against_the_computer_change_nothing(
    slow_site, client, fixed_dice, settings
):
    """While the bot is to move, every command of the person is out of turn (the bot
    acts only through its Celery task, held back here by a long pause): whatever the person
    sends, nothing changes, no frame gets an ack or an internal error, and the socket lives."""
    site = slow_site
    # The bot's first task is scheduled by this process (the match starts here): held back.
    settings.BOT_THINK_SECONDS = settings.BOT_STEP_SECONDS = 3600
    person = make_user("fuzz_vs_bot")
    fixed_dice(2, 6)  # the bot (seat 1) wins the opening roll, rolls at once and is to move
    match = services.match_create_vs_bot(user=person, level="master", turn_seconds=None)
    summary = asyncio.run(_fuzz_out_of_turn(site, match.pk, session_cookie_for(client, person)))
    assert summary["frames"] == BOT_MATCH_FRAMES and summary["acks"] == 0
    assert summary["errors"] >= BOT_MATCH_FRAMES // 2, summary
    assert summary["not_your_turn"] > 0, summary
    # The bot has no socket, yet claiming it as abandoned is refused: it is always at the table.
    assert summary["opponent_present"] > 0, summary


async def _fuzz_out_of_turn(site, match_id: int, cookie: str) -> dict[str, int]:
    rng = random.Random(SEED + 16)
    url = f"ws://127.0.0.1:{site.port}/ws/matches/{match_id}/"
    read_state = sync_to_async(_state)
    counts = {"frames": 0, "errors": 0, "acks": 0, "not_your_turn": 0, "opponent_present": 0}
    before = await read_state(match_id)
    # Every turn and table command (a claim too: the bot never leaves); resign/leave/abort would
    # end the match; the chat is no turn command (a valid message is stored and acked) and has its
    # own cases in the fuzz above.
    chat_types = {e.command.type for e in MATCH_COMMANDS if e.sender is Sender.SIGNED_IN}
    types = sorted(COMMAND_TYPES - {"resign", "leave", "abort"} - chat_types)
    async with connect(url, origin=site.url, additional_headers={"Cookie": cookie}) as person:
        snapshot = json.loads(await person.recv())
        assert snapshot["type"] == "snapshot" and snapshot["state"]["match"]["players"][1]["bot"]
        for number in range(BOT_MATCH_FRAMES):
            sent = frame(rng, before[0], types)
            await person.send(sent)
            await person.send(json.dumps({"type": "ping", "id": f"b{number}"}))
            while True:
                message = json.loads(await asyncio.wait_for(person.recv(), 10))
                if message["type"] == "pong" and message.get("id") == f"b{number}":
                    break
                counts["acks"] += message["type"] == "ack"
                counts["errors"] += message["type"] == "error"
                counts["not_your_turn"] += message.get("code") == "not_your_turn"
                counts["opponent_present"] += message.get("code") == "opponent_present"
                assert message.get("code") != "internal", (number, sent, message)
            counts["frames"] += 1
            assert await read_state(match_id) == before, (number, sent)
    return counts


# --- The lobby socket's quick-pairing commands ---------------------------------------------------

POOL_FRAMES = 1500
POOL_TYPES = ["pool_join", "pool_leave", "pool_accept", "pool_decline", "ping"]
ODD_POOLS = ["traditional.1.60.rated", "tournament.5.90.casual", "traditional.1.60",
             "traditional.9.60.rated", "traditional.1.61.rated", "traditional.1.-60.rated",
             "TRADITIONAL.1.60.rated", "traditional.01.060.rated", "x" * 41, "...",
             "1.1.1.1", "traditional.１.60.rated"]  # fmt: skip


def pool_frame(rng: random.Random, proposal: int) -> str | bytes:
    """A hostile lobby frame: mostly the pool commands with fields of every type and value."""
    if rng.random() < 0.2:
        return frame(rng, 0, POOL_TYPES)
    command = {"type": rng.choice(POOL_TYPES)}
    if rng.random() < 0.8:
        command["pool"] = rng.choice([*ODD_POOLS, any_value(rng), rng.choice(ODD_STRINGS)])
    if rng.random() < 0.8:
        command["proposal"] = rng.choice(
            [proposal, proposal, proposal + 1, 0, -1, 2**63, 2**64, str(proposal), 1.5, True,
             None, any_value(rng)]
        )  # fmt: skip
    if rng.random() < 0.5:  # the browser's client seed for the dice
        command["client_seed"] = hostile_seed(rng)
    if rng.random() < 0.5:  # the commitment the page showed (games/next_seed.py)
        command["server_seed_hash"] = rng.choice(["0" * 64, "F" * 64, "0" * 63, hostile_seed(rng)])
    if rng.random() < 0.7:
        command["id"] = rng.choice([rng.randrange(1000), "c", any_value(rng), 2**64, "x" * 65])
    text = json.dumps(command, ensure_ascii=rng.random() < 0.5)
    return text if rng.random() < 0.97 else text * 200


def _pool_state(user_id: int) -> tuple:
    from pairing.models import PoolEntry, Proposal

    entries = list(
        PoolEntry.objects.filter(user_id=user_id).values_list(
            "rule_set_name", "length", "turn_seconds", "rated", "joined_at", "proposal_id",
            "accepted", "client_seed", "server_seed",
        )
    )  # fmt: skip
    return entries, Proposal.objects.count(), Match.objects.count()


def test_hostile_pool_frames_change_nothing_and_the_lobby_socket_lives(site, client):
    from datetime import timedelta

    from pairing import services as pairing_services
    from pairing.models import PoolEntry, Proposal
    from pairing.pools import Pool
    from ratings.models import Rating

    fuzzer, other = make_user("fuzz_pool"), make_user("fuzz_far")
    for user, rating in ((fuzzer, 1200), (other, 1700)):
        Rating.objects.create(user=user, rating=rating, peak=rating)
        pairing_services.pool_join(user=user, pool=Pool("traditional", 1, 60, True))
    joined = PoolEntry.objects.first().joined_at
    PoolEntry.objects.update(joined_at=joined - timedelta(seconds=40))
    pairing_services.pool_pair(pool=Pool("traditional", 1, 60, True))
    proposal = Proposal.objects.get().pk
    summary = asyncio.run(_fuzz_pool(site, fuzzer.pk, proposal, session_cookie_for(client, fuzzer)))
    assert summary["frames"] == POOL_FRAMES
    assert summary["errors"] > POOL_FRAMES // 2 and summary["changes"] >= 1, summary


async def _fuzz_pool(site, user_id: int, proposal: int, cookie: str) -> dict[str, int]:
    rng = random.Random(SEED + 15)
    return await _fuzz_socket(
        f"ws://127.0.0.1:{site.port}/ws/lobby/", site, cookie, POOL_FRAMES,
        lambda: pool_frame(rng, proposal), sync_to_async(lambda: _pool_state(user_id)),
    )  # fmt: skip


async def _fuzz_socket(url, site, cookie, count, make_frame, read_state) -> dict[str, int]:
    """Send `count` hostile frames, each followed by a ping: the socket must answer every ping,
    never fail inside (`internal`), and change what `read_state` reads only with an ack."""
    counts = {"frames": 0, "errors": 0, "changes": 0}
    async with connect(url, origin=site.url, additional_headers={"Cookie": cookie}) as socket:
        for number in range(count):
            before = await read_state()
            sent = make_frame()
            await socket.send(sent)
            await socket.send(json.dumps({"type": "ping", "id": f"p{number}"}))
            acked = False
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if message["type"] == "pong" and message.get("id") == f"p{number}":
                    break
                acked |= message["type"] == "ack"
                counts["errors"] += message["type"] == "error"
                assert message.get("code") != "internal", (SEED, number, sent, message)
            counts["frames"] += 1
            after = await read_state()
            if after != before:
                assert acked, (SEED, number, sent)  # only an acknowledged command changes
                counts["changes"] += 1
    return counts


# --- The tournament socket (docs/protocol.md "Tournament socket") --------------------------------

TOURNAMENT_FRAMES = 1000
TOURNAMENT_TYPES = ["join", "withdraw", "pause", "page", "chat", "ping"]


def tournament_frame(rng: random.Random) -> str | bytes:
    """A hostile tournament frame: the commands with fields of every type and value."""
    if rng.random() < 0.2:
        return frame(rng, 0, TOURNAMENT_TYPES)
    command = {"type": rng.choice(TOURNAMENT_TYPES)}
    if rng.random() < 0.6:
        command["pause"] = rng.choice([True, False, 1, 0, "true", None, [True], any_value(rng)])
    if rng.random() < 0.6:
        command["page"] = rng.choice([1, 2, 0, -1, 10_001, 2**64, 1.5, "2", None, any_value(rng)])
    if rng.random() < 0.4:
        command["text"] = rng.choice(CHAT_TEXTS + [any_value(rng)])
    if rng.random() < 0.7:
        command["id"] = rng.choice([rng.randrange(1000), "c", any_value(rng), 2**64, "x" * 65])
    text = json.dumps(command, ensure_ascii=rng.random() < 0.5)
    return text if rng.random() < 0.97 else text * 200


def _tournament_state(tournament_id: int) -> tuple:
    from tournaments.models import ChatLine, Player

    players = list(
        Player.objects.filter(tournament_id=tournament_id).values_list(
            "user_id", "withdrawn", "paused", "points", "playing_id"
        )
    )
    texts = list(ChatLine.objects.values_list("text", flat=True))
    assert all(is_showable(text) and len(text) <= MAX_CHAT_LENGTH for text in texts)
    return players, len(texts)


def test_hostile_tournament_frames_change_nothing_and_the_socket_lives(site, client):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import Tournament

    fuzzer = make_user("fuzz_arena")
    start = timezone.now() + timedelta(hours=1)
    tournament = Tournament.objects.create(
        name="Fuzz", rated=False, starts_at=start, ends_at=start + timedelta(hours=1)
    )
    rng = random.Random(SEED + 31)
    summary = asyncio.run(
        _fuzz_socket(
            f"ws://127.0.0.1:{site.port}/ws/tournaments/{tournament.pk}/", site,
            session_cookie_for(client, fuzzer), TOURNAMENT_FRAMES, lambda: tournament_frame(rng),
            sync_to_async(lambda: _tournament_state(tournament.pk)),
        )
    )  # fmt: skip
    assert summary["frames"] == TOURNAMENT_FRAMES
    assert summary["errors"] > TOURNAMENT_FRAMES // 2 and summary["changes"] >= 1, summary


BELL_FRAMES = 400


def test_hostile_bell_frames_on_the_site_socket_change_nothing(site, client):
    """The bell's commands on /ws/me/ (docs/protocol.md "The bell") through a real Daphne:
    `ids` and `all` of every shape (nested, huge, non-finite, wrong-typed, someone else's ids,
    past 2^53) from a signed-in user, and any bell frame from a signed-out socket. Only a frame
    naming exactly the user's own ids (or all: true) is acked; every other one gets an error and
    leaves every notification as it was; the socket answers a ping at the end."""
    from notifications.models import Kind, Notification
    from notifications.services import notify

    owner, other = make_user("bell_fuzz"), make_user("bell_other")
    mine = [notify(recipient_id=owner.pk, kind=Kind.ANALYSIS_READY).pk for _ in range(5)]
    theirs = notify(recipient_id=other.pk, kind=Kind.ANALYSIS_READY).pk
    cookie = session_cookie_for(client, owner)

    def state():
        return sorted(Notification.objects.values_list("pk", "recipient_id", "read_at"))

    summary = asyncio.run(_fuzz_bell(site, cookie, mine, theirs, sync_to_async(state)))
    assert summary["acks"] >= 5 and summary["errors"] > BELL_FRAMES // 2, summary


async def _fuzz_bell(site, cookie: str, mine: list[int], theirs: int, read_state):
    rng = random.Random(SEED + 47)
    url = f"ws://127.0.0.1:{site.port}/ws/me/"
    counts = {"acks": 0, "errors": 0}
    async with (
        connect(url, origin=site.url, additional_headers={"Cookie": cookie}) as owner,
        connect(url, origin=site.url) as visitor,
    ):
        for socket in (owner, visitor):
            assert json.loads(await socket.recv())["type"] == "hello"
        while json.loads(await owner.recv())["type"] != "notifications":
            pass
        for number in range(BELL_FRAMES):
            socket = visitor if number % 9 == 8 else owner
            kind = rng.choice(["notifications_read", "notifications_read", "notifications_clear"])
            command = {"type": kind, "id": number}
            roll = rng.random()
            if roll < 0.6:
                command["ids"] = rng.choice([
                    [rng.choice(mine)], [theirs], [rng.choice(mine), theirs], [], [0], [-1],
                    [2**53 + 1], [2**64], [True], ["1"], [1.5], list(range(1, 60)),
                    NESTED_CANDIDATE, any_value(rng), [any_value(rng)],
                ])  # fmt: skip
            if roll > 0.4:
                command["all"] = rng.choice([True, False, 1, "true", None, [True], any_value(rng)])
            if command.get("all") is True and rng.random() < 0.9:
                command["all"] = False  # "all" that succeeds would leave nothing to fuzz
            before = await read_state()
            sent = json.dumps(command)
            await socket.send(sent)
            reply = json.loads(await asyncio.wait_for(socket.recv(), 10))
            while reply.get("id") != number and reply["type"].startswith("notification"):
                reply = json.loads(await asyncio.wait_for(socket.recv(), 10))
            after = await read_state()
            ids, everything = command.get("ids"), command.get("all")
            own_ids = (
                isinstance(ids, list) and 1 <= len(ids) <= 50
                and all(type(item) is int and item in mine for item in ids)
            )  # fmt: skip
            # Exactly one of own ids and `all: true` (notifications/protocol.py).
            good = socket is owner and (
                (own_ids and (everything is None or everything is False))
                or (ids is None and everything is True)
            )
            assert reply.get("code") != "internal", (number, sent, reply)
            if good:
                assert reply["type"] == "ack", (number, sent, reply)
                counts["acks"] += 1
                mine = [pk for pk, *_ in after if pk in mine]  # a clear removes some
                if not mine:
                    break
            else:
                assert reply["type"] == "error", (number, sent, reply)
                assert after == before, (number, sent)
                counts["errors"] += 1
        await owner.send(json.dumps({"type": "ping", "id": "end"}))
        while (reply := json.loads(await asyncio.wait_for(owner.recv(), 10)))["type"] != "pong":
            pass
    return counts
