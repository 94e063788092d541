"""Call signalling over the match socket (the real ASGI application and Redis): each frame reaches
the opponent's page of that match and nobody else's; spectators, strangers, a finished match, a
blocked pair, the computer and a guest in a rated match are refused; the frames and bytes a user
relays are capped across all their sockets; TURN credentials are the person's, renewed only while
the match is active and capped per hour; blocking hangs up (docs/protocol.md "Calls")."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games import services
from moderation import services as moderation
from realtime import publisher
from tests.factories import make_user
from tests.games.conftest import cookie_for
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
SDP = "v=0\r\no=- 46117 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
CANDIDATE = {
    "candidate": "candidate:1 1 udp 2122260223 192.0.2.7 54400 typ host generation 0",
    "sdpMid": "0",
    "sdpMLineIndex": 0,
    "usernameFragment": "Ab1c",
}
FRAMES = {
    "call_media": {"session": "white-tab-1", "audio": True, "video": False},
    "call_offer": {
        "session": "white-tab-1",
        "to": "black-tab-1",
        "sdp": SDP,
        "part": 0,
        "parts": 1,
    },
    "call_answer": {
        "session": "white-tab-1",
        "to": "black-tab-1",
        "sdp": SDP,
        "part": 1,
        "parts": 2,
    },
    "call_ice": {"session": "white-tab-1", "to": "black-tab-1", "candidate": CANDIDATE},
    "call_hangup": {"session": "white-tab-1"},
}


async def open_socket(path: str, cookie=None) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application, path, headers=HEADERS + ([cookie] if cookie else [])
    )
    connected, _ = await socket.connect()
    assert connected
    return socket


async def match_socket(match_id: int, cookie=None) -> WebsocketCommunicator:
    socket = await open_socket(f"/ws/matches/{match_id}/", cookie)
    await until(socket, lambda m: m["type"] == "snapshot")
    return socket


async def until(socket, wanted, timeout: float = 5) -> dict:
    while not wanted(message := await socket.receive_json_from(timeout=timeout)):
        pass
    return message


async def answer_to(socket, frame: dict, ident: str) -> dict:
    await socket.send_json_to({**frame, "id": ident})
    return await until(socket, lambda m: m["type"] in ("ack", "error") and m.get("id") == ident)


async def received_until_pong(socket, mark: str) -> list[dict]:
    """Everything the socket got before the pong of a ping sent now: a frame relayed earlier
    is in the list if it was ever coming: the publisher's queue is sent first (the relay is
    handed to it before the sender's ack), then the ping travels behind it."""
    await publisher.drained()
    await asyncio.sleep(0.2)  # the channel layer's hop to the receiving socket
    await socket.send_json_to({"type": "ping", "id": mark})
    got = []
    while (message := await socket.receive_json_from(timeout=5)) != {"type": "pong", "id": mark}:
        got.append(message)
    return got


def calls_in(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["type"].startswith("call_")]


@pytest.fixture
def table(fixed_dice, client):
    """An active casual match, its players' cookies and a signed-in watcher's."""
    white, black, watcher = make_user("callw"), make_user("callb"), make_user("calls")
    match = services.match_create(creator=white, rated=False)
    fixed_dice(6, 1)
    services.match_accept(user=black, match_id=match.pk)
    cookies = [cookie_for(client.__class__(), user) for user in (white, black, watcher)]
    return match, (white, black, watcher), cookies


async def test_each_frame_reaches_the_opponents_page_only_and_as_sent(table):
    match, _, (white_cookie, black_cookie, watcher_cookie) = table
    white = await match_socket(match.pk, white_cookie)
    black = await match_socket(match.pk, black_cookie)
    black_site = await open_socket("/ws/me/", black_cookie)  # the opponent's other page
    watcher = await match_socket(match.pk, watcher_cookie)
    anonymous = await match_socket(match.pk)
    await received_until_pong(white, "settle")
    for number, (kind, fields) in enumerate(FRAMES.items()):
        frame = {"type": kind, **fields}
        assert (await answer_to(white, frame, f"f{number}"))["type"] == "ack"
        relayed = await until(black, lambda m, kind=kind: m["type"] == kind)
        assert relayed == frame  # the fields as sent, the sender's id not among them
    for spectator in (watcher, anonymous):
        assert calls_in(await received_until_pong(spectator, "s")) == []
    assert calls_in(await received_until_pong(white, "w")) == []  # nothing comes back
    # The opponent's site socket got the group message too and lives on, quiet.
    await black_site.send_json_to({"type": "ping", "id": "me"})
    assert await until(black_site, lambda m: m.get("id") == "me") == {"type": "pong", "id": "me"}
    # The other way round.
    frame = {"type": "call_media", "session": "black-tab-1", "audio": False, "video": True}
    assert (await answer_to(black, frame, "b1"))["type"] == "ack"
    assert await until(white, lambda m: m["type"] == "call_media") == frame
    for socket in (white, black, black_site, watcher, anonymous):
        await socket.disconnect()


@pytest.fixture
def turn(settings):
    """TURN configured: credentials signed with a known secret, lasting ten minutes."""
    settings.CALL_STUN_URLS = ["stun:stun.example.org:3478"]
    settings.CALL_TURN_URLS = ["turn:turn.example.org:3478?transport=udp"]
    settings.CALL_TURN_SECRET = "north-wind"
    settings.CALL_TURN_TTL_SECONDS = 600
    return settings


def another_match_of(player: User, fixed_dice, *, after: int) -> int:
    """The player's next match, against someone new, once match `after` has ended (one match at a
    time per player)."""
    services.match_resign(user=player, match_id=after, left_table=False)
    match = services.match_create(creator=player, rated=False)
    fixed_dice(6, 1)
    services.match_accept(user=make_user(f"next{match.pk}"), match_id=match.pk)
    return match.pk


async def test_call_join_gives_this_person_turn_credentials_coturn_accepts(table, turn):
    match, (white_user, black_user, _), (white_cookie, black_cookie, _) = table
    answers = []
    for cookie in (white_cookie, black_cookie):
        socket = await match_socket(match.pk, cookie)
        answers.append(await answer_to(socket, {"type": "call_join"}, "j"))
        await socket.disconnect()
    for answer, user in zip(answers, (white_user, black_user), strict=True):
        assert answer["type"] == "ack"
        assert answer["ice_expires_in"] == 600
        stun, turn_server = answer["ice_servers"]
        assert stun == {"urls": ["stun:stun.example.org:3478"]}
        assert turn_server["urls"] == ["turn:turn.example.org:3478?transport=udp"]
        expiry, who = turn_server["username"].split(":")
        assert who == str(user.pk)  # the person: coturn's user-quota counts by this part
        assert 590 <= int(expiry) - time.time() <= 600
        digest = hmac.new(b"north-wind", turn_server["username"].encode(), hashlib.sha1).digest()
        assert turn_server["credential"] == base64.b64encode(digest).decode()
    assert answers[0]["ice_servers"][1]["username"] != answers[1]["ice_servers"][1]["username"]


async def test_a_persons_credentials_name_them_alone_in_every_match(table, turn, fixed_dice):
    """The name coturn counts a quota by is the same in the next match, and in a renewal."""
    match, (white_user, _, _), (white_cookie, _, _) = table
    names = []
    socket = await match_socket(match.pk, white_cookie)
    for ident in ("first", "renewed"):
        answer = await answer_to(socket, {"type": "call_join"}, ident)
        names.append(answer["ice_servers"][1]["username"].split(":")[1])
    await socket.disconnect()
    next_match = await sync_to_async(another_match_of)(white_user, fixed_dice, after=match.pk)
    socket = await match_socket(next_match, white_cookie)
    answer = await answer_to(socket, {"type": "call_join"}, "next")
    names.append(answer["ice_servers"][1]["username"].split(":")[1])
    await socket.disconnect()
    assert names == [str(white_user.pk)] * 3


async def test_credentials_are_capped_per_person_an_hour_across_sockets_and_matches(
    table, turn, fixed_dice
):
    turn.CALL_TURN_CREDENTIALS_PER_HOUR = 3
    match, (white_user, _, _), (white_cookie, black_cookie, _) = table
    sockets = [await match_socket(match.pk, white_cookie) for _ in range(2)]
    answers = [await answer_to(sockets[n % 2], {"type": "call_join"}, f"j{n}") for n in range(5)]
    assert [a["type"] for a in answers] == ["ack"] * 3 + ["error"] * 2
    refusal = answers[3]
    assert refusal["code"] == "rate_limited"
    assert "this hour" in refusal["message"] and "60 minutes" in refusal["message"]
    # The opponent has a count of their own.
    black = await match_socket(match.pk, black_cookie)
    assert (await answer_to(black, {"type": "call_join"}, "b"))["type"] == "ack"
    for socket in (*sockets, black):
        await socket.disconnect()
    # Another match does not start the count again.
    next_match = await sync_to_async(another_match_of)(white_user, fixed_dice, after=match.pk)
    socket = await match_socket(next_match, white_cookie)
    answer = await answer_to(socket, {"type": "call_join"}, "next")
    assert (answer["type"], answer["code"]) == ("error", "rate_limited")
    await socket.disconnect()


async def test_without_turn_a_join_gives_stun_only_and_counts_no_credentials(table, settings):
    settings.CALL_STUN_URLS = ["stun:stun.example.org:3478"]
    settings.CALL_TURN_CREDENTIALS_PER_HOUR = 1
    match, _, (white_cookie, _, _) = table
    socket = await match_socket(match.pk, white_cookie)
    for ident in ("a", "b", "c"):
        answer = await answer_to(socket, {"type": "call_join"}, ident)
        assert answer == {"type": "ack", "id": ident, "ice_expires_in": None,
                          "ice_servers": [{"urls": ["stun:stun.example.org:3478"]}]}  # fmt: skip
    await socket.disconnect()


async def test_no_credentials_on_someone_elses_match(table, turn, fixed_dice, client):
    """A player of another match, on this match's socket, is a spectator here: no credentials."""
    match, _, _ = table
    stranger, partner = (
        await sync_to_async(make_user)("callx1"),
        await sync_to_async(make_user)("callx2"),
    )
    theirs = await sync_to_async(services.match_create)(creator=stranger, rated=False)
    await sync_to_async(fixed_dice)(6, 1)
    await sync_to_async(services.match_accept)(user=partner, match_id=theirs.pk)
    cookie = await sync_to_async(cookie_for)(client.__class__(), stranger)
    socket = await match_socket(match.pk, cookie)
    answer = await answer_to(socket, {"type": "call_join"}, "j")
    assert (answer["type"], answer["code"]) == ("error", "not_a_player")
    assert "ice_servers" not in answer
    await socket.disconnect()


async def test_spectators_and_anonymous_viewers_are_refused_every_call_command(table):
    match, _, (_, black_cookie, watcher_cookie) = table
    black = await match_socket(match.pk, black_cookie)
    watcher = await match_socket(match.pk, watcher_cookie)
    anonymous = await match_socket(match.pk)
    for socket in (watcher, anonymous):
        for kind, fields in [("call_join", {}), *FRAMES.items()]:
            answer = await answer_to(socket, {"type": kind, **fields}, kind)
            assert (answer["type"], answer["code"]) == ("error", "not_a_player"), kind
    assert calls_in(await received_until_pong(black, "b")) == []
    for socket in (black, watcher, anonymous):
        await socket.disconnect()


async def test_no_call_after_the_match_ends(table):
    match, (white_user, _, _), (white_cookie, black_cookie, _) = table
    white = await match_socket(match.pk, white_cookie)
    black = await match_socket(match.pk, black_cookie)
    await sync_to_async(services.match_resign)(user=white_user, match_id=match.pk, left_table=False)
    for kind, fields in [("call_join", {}), *FRAMES.items()]:
        answer = await answer_to(white, {"type": kind, **fields}, kind)
        assert (answer["type"], answer["code"]) == ("error", "match_not_active"), kind
    assert calls_in(await received_until_pong(black, "b")) == []
    await white.disconnect()
    await black.disconnect()


async def test_a_block_refuses_the_call_and_hangs_up_both_pages(table):
    match, (white_user, black_user, _), (white_cookie, black_cookie, _) = table
    white = await match_socket(match.pk, white_cookie)
    black = await match_socket(match.pk, black_cookie)
    assert (await answer_to(white, {"type": "call_join"}, "j"))["type"] == "ack"
    await sync_to_async(moderation.block_add)(user=black_user, target=white_user)
    for socket in (white, black):
        hangup = await until(socket, lambda m: m["type"] == "call_hangup")
        assert hangup == {"type": "call_hangup", "session": None, "reason": "blocked"}
    for kind, fields in [("call_join", {}), *FRAMES.items()]:
        answer = await answer_to(white, {"type": kind, **fields}, kind)
        assert (answer["type"], answer["code"]) == ("error", "blocked"), kind
    assert calls_in(await received_until_pong(black, "b")) == []
    # Unblocking: no hang-up is sent, and the pair may call again.
    await sync_to_async(moderation.block_remove)(user=black_user, target_id=white_user.pk)
    assert calls_in(await received_until_pong(white, "w")) == []
    assert (await answer_to(white, {"type": "call_join"}, "j2"))["type"] == "ack"
    await white.disconnect()
    await black.disconnect()


async def test_the_computer_takes_no_call(client):
    person = await sync_to_async(make_user)("callbot")
    match = await sync_to_async(services.match_create_vs_bot)(
        user=person, level="beginner", turn_seconds=None
    )
    socket = await match_socket(match.pk, await sync_to_async(cookie_for)(client, person))
    answer = await answer_to(socket, {"type": "call_join"}, "j")
    assert (answer["type"], answer["code"]) == ("error", "call_unavailable")
    await socket.disconnect()


async def test_a_guest_calls_only_in_a_casual_match(table):
    match, (white_user, _, _), (white_cookie, _, _) = table
    await sync_to_async(User.objects.filter(pk=white_user.pk).update)(is_guest=True)
    white = await match_socket(match.pk, white_cookie)
    assert (await answer_to(white, {"type": "call_join"}, "casual"))["type"] == "ack"
    # A guest is never seated in a rated match; were one there, the call would be refused.
    await sync_to_async(type(match).objects.filter(pk=match.pk).update)(rated=True)
    answer = await answer_to(white, {"type": "call_join"}, "rated")
    assert (answer["type"], answer["code"]) == ("error", "call_unavailable")
    await white.disconnect()


async def test_signalling_is_counted_per_user_across_all_their_sockets(table, settings):
    """Eight sockets of one player sending at once share one count: exactly the window's frames
    reach the opponent, the rest are refused to the socket that sent them, and every socket, a
    fresh one too, is past the limit while the opponent's own count is untouched."""
    settings.CALL_SIGNALS_PER_WINDOW = 12
    settings.CALL_WINDOW_SECONDS = 60
    match, _, (white_cookie, black_cookie, _) = table
    sockets = [await match_socket(match.pk, white_cookie) for _ in range(8)]
    black = await match_socket(match.pk, black_cookie)
    frame = {"type": "call_ice", **FRAMES["call_ice"]}

    async def three_frames(number: int, socket) -> list[dict]:
        for each in range(3):
            await socket.send_json_to({**frame, "id": f"s{number}-{each}"})
        return [await until(socket, lambda m: m["type"] in ("ack", "error")) for _ in range(3)]

    sent = await asyncio.gather(*map(three_frames, range(8), sockets))
    answers = [answer for answers_of_one in sent for answer in answers_of_one]
    assert sorted(a["type"] for a in answers) == ["ack"] * 12 + ["error"] * 12
    assert {a["code"] for a in answers if a["type"] == "error"} == {"rate_limited"}
    received = await received_until_pong(black, "b")
    assert len(calls_in(received)) == 12
    assert not any(m["type"] == "error" for m in received)  # refusals go to the sender only
    fresh = await match_socket(match.pk, white_cookie)
    answer = await answer_to(fresh, frame, "fresh")
    assert (answer["type"], answer["code"]) == ("error", "rate_limited")
    back = {"type": "call_ice", **FRAMES["call_ice"], "session": "black-tab-1", "to": "white-tab-1"}
    assert (await answer_to(black, back, "b1"))["type"] == "ack"
    for socket in (*sockets, fresh, black):
        await socket.disconnect()


async def test_the_bytes_relayed_are_capped_per_user_as_well(table, settings):
    settings.CALL_SIGNAL_BYTES_PER_WINDOW = 10_000
    settings.CALL_WINDOW_SECONDS = 60
    match, _, (white_cookie, black_cookie, _) = table
    sockets = [await match_socket(match.pk, white_cookie) for _ in range(2)]
    black = await match_socket(match.pk, black_cookie)
    big = {"type": "call_offer", **FRAMES["call_offer"], "sdp": "x" * 3000}  # ~3,090 relayed
    answers = [await answer_to(sockets[n % 2], big, f"o{n}") for n in range(4)]
    assert [a["type"] for a in answers] == ["ack"] * 3 + ["error"]
    assert answers[3]["code"] == "rate_limited"
    # A small frame still fits in what is left of the bytes.
    ice = {"type": "call_ice", **FRAMES["call_ice"]}
    assert (await answer_to(sockets[0], ice, "small"))["type"] == "ack"
    assert len(calls_in(await received_until_pong(black, "b"))) == 4
    for socket in (*sockets, black):
        await socket.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "call_offer", **FRAMES["call_offer"], "sdp": "x" * 3001},
        {"type": "call_offer", **FRAMES["call_offer"], "sdp": "v=0\x00"},
        {"type": "call_offer", **FRAMES["call_offer"], "sdp": "v=0 ш"},
        {"type": "call_offer", **FRAMES["call_offer"], "part": 1, "parts": 1},
        {"type": "call_offer", **FRAMES["call_offer"], "parts": 5},
        {"type": "call_offer", **FRAMES["call_offer"], "part": True},
        {"type": "call_offer", **FRAMES["call_offer"], "to": "short"},
        {"type": "call_answer", **FRAMES["call_answer"], "session": "a b c d e f"},
        {"type": "call_ice", **FRAMES["call_ice"], "candidate": {**CANDIDATE, "x": 1}},
        {"type": "call_ice", **FRAMES["call_ice"], "candidate": {**CANDIDATE, "sdpMid": [1]}},
        {"type": "call_ice", **FRAMES["call_ice"], "candidate": {"candidate": "c" * 513}},
        {"type": "call_ice", **FRAMES["call_ice"], "candidate": {"sdpMLineIndex": 0}},
        {"type": "call_ice", **FRAMES["call_ice"], "candidate": {**CANDIDATE, "sdpMLineIndex": 99}},
        {"type": "call_ice", **FRAMES["call_ice"], "candidate": [CANDIDATE]},
        {"type": "call_media", **FRAMES["call_media"], "audio": "true"},
        {"type": "call_media", "session": "white-tab-1", "audio": True},
        {"type": "call_hangup"},
    ],
    ids=lambda frame: frame["type"],
)
async def test_hostile_call_frames_are_bad_field_and_reach_nobody(table, frame):
    match, _, (white_cookie, black_cookie, _) = table
    white = await match_socket(match.pk, white_cookie)
    black = await match_socket(match.pk, black_cookie)
    answer = await answer_to(white, frame, "h")
    assert (answer["type"], answer["code"]) == ("error", "bad_field")
    assert calls_in(await received_until_pong(black, "b")) == []
    await asyncio.gather(white.disconnect(), black.disconnect())
