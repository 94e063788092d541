"""Chat over the match socket (the real ASGI application and Redis): who sees which chat during
and after a match, length and rate limits, mutes and blocks."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from chat.models import ChatMessage
from games import services
from moderation import services as moderation
from tests.factories import make_user
from tests.games.conftest import cookie_for
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


class Socket(WebsocketCommunicator):
    """A match socket that keeps the chat messages it receives while waiting for other things."""

    inbox: list[dict]

    async def receive_json_from(self, timeout: float = 5) -> dict:
        message = await super().receive_json_from(timeout=timeout)
        if message["type"] == "chat":
            self.inbox.append(message["message"])
        return message


async def open_socket(match_id: int, cookie=None) -> tuple[Socket, dict]:
    socket = Socket(
        application, f"/ws/matches/{match_id}/", headers=HEADERS + ([cookie] if cookie else [])
    )
    socket.inbox = []
    connected, _ = await socket.connect()
    assert connected
    return socket, await next_of(socket, "snapshot")


async def next_of(socket, kind: str, timeout: float = 5) -> dict:
    while (message := await socket.receive_json_from(timeout=timeout))["type"] != kind:
        assert message["type"] in ("presence", "event", "ack", "chat", "chat_muted"), message
    return message


async def chats_until(socket, mark: str) -> list[dict]:
    """The chat messages the socket got since the last call, up to the one whose text is `mark`
    (left out). A match's messages are relayed in the order they were published, so a message
    missing before the mark was withheld, not late."""
    while not any(message["text"] == mark for message in socket.inbox):
        await socket.receive_json_from()
    at = next(i for i, message in enumerate(socket.inbox) if message["text"] == mark)
    got, socket.inbox = socket.inbox[:at], socket.inbox[at + 1 :]
    return got


async def mark(sockets_and_marks) -> None:
    """Each socket sends its own mark (everyone sees their own messages)."""
    for socket, text in sockets_and_marks:
        assert (await send_chat(socket, text, text=text))["type"] == "ack"


async def send_chat(socket, ident: str, **fields) -> dict:
    await socket.send_json_to({"type": "chat", "id": ident, **fields})
    while True:
        message = await socket.receive_json_from(timeout=5)
        if message["type"] in ("ack", "error") and message.get("id") == ident:
            return message


@pytest.fixture
def chat_match(fixed_dice, client, settings):
    settings.CHAT_MESSAGES_PER_WINDOW = 100
    white, black, watcher = make_user("cw"), make_user("cb"), make_user("cs")
    match = services.match_create(creator=white)
    fixed_dice(6, 1)
    services.match_accept(user=black, match_id=match.pk)
    cookies = [cookie_for(client.__class__(), user) for user in (white, black, watcher)]
    return match, (white, black, watcher), cookies


async def test_players_never_see_the_spectators_chat_during_play_but_do_after(chat_match):
    match, (white, black, watcher), (white_cookie, black_cookie, watcher_cookie) = chat_match
    white_socket, _ = await open_socket(match.pk, white_cookie)
    black_socket, _ = await open_socket(match.pk, black_cookie)
    spectator, _ = await open_socket(match.pk, watcher_cookie)
    anonymous, _ = await open_socket(match.pk)

    assert (await send_chat(white_socket, "w1", text="good luck <b>!</b>"))["type"] == "ack"
    assert (await send_chat(spectator, "s1", text="white should run"))["type"] == "ack"
    assert (await send_chat(black_socket, "b1", phrase="good_luck"))["type"] == "ack"

    def texts(messages):
        return [(m["room"], m["user"], m["text"] or m["phrase"]) for m in messages]

    players_room = [("players", "cw", "good luck <b>!</b>"), ("players", "cb", "good_luck")]
    everything = [players_room[0], ("spectators", "cs", "white should run"), players_room[1]]
    await mark([(white_socket, "mark-w"), (black_socket, "mark-b")])
    assert texts(await chats_until(white_socket, "mark-w")) == players_room
    assert texts(await chats_until(black_socket, "mark-b")) == [
        *players_room,
        ("players", "cw", "mark-w"),
    ]
    assert texts(await chats_until(spectator, "mark-w")) == everything
    assert texts(await chats_until(anonymous, "mark-w")) == everything
    # A snapshot during play: the same rule.
    _, white_snapshot = await open_socket(match.pk, white_cookie)
    assert texts(white_snapshot["state"]["chat"]["messages"])[:2] == players_room
    assert "spectators" not in {m["room"] for m in white_snapshot["state"]["chat"]["messages"]}
    # Anonymous visitors read but cannot write.
    assert (await send_chat(anonymous, "a1", text="hi"))["code"] == "login_required"

    await sync_to_async(services.match_resign)(user=black, match_id=match.pk)
    await send_chat(spectator, "s2", text="well played both")
    await mark([(white_socket, "mark-w2")])
    got = await chats_until(white_socket, "mark-w2")
    assert texts(got)[-1] == ("spectators", "cs", "well played both")  # after the match: shown
    _, after = await open_socket(match.pk, white_cookie)
    assert ("spectators", "cs", "white should run") in texts(after["state"]["chat"]["messages"])
    for socket in (white_socket, black_socket, spectator, anonymous):
        await socket.disconnect()


async def test_141_characters_are_refused_and_nothing_is_stored(chat_match):
    match, _, (white_cookie, _, _) = chat_match
    socket, _ = await open_socket(match.pk, white_cookie)
    for fields, code in (
        ({"text": "ш" * 141}, "too_long"),
        ({"text": "   "}, "bad_field"),
        ({"text": "a\u0000b"}, "bad_field"),
        ({"text": 42}, "bad_field"),
        ({"phrase": "good_night"}, "bad_field"),
        ({"text": "x", "phrase": "thanks"}, "bad_field"),
        ({}, "bad_field"),
    ):
        answer = await send_chat(socket, "x", **fields)
        assert (answer["type"], answer["code"]) == ("error", code), fields
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    assert (await send_chat(socket, "ok", text="ш" * 140))["type"] == "ack"
    await socket.disconnect()


async def test_flooding_is_rate_limited_per_user_across_sockets(chat_match, settings):
    settings.CHAT_MESSAGES_PER_WINDOW = 5
    settings.CHAT_WINDOW_SECONDS = 60
    match, _, (white_cookie, _, _) = chat_match
    tab_one, _ = await open_socket(match.pk, white_cookie)
    tab_two, _ = await open_socket(match.pk, white_cookie)
    answers = []
    for number in range(8):
        socket = tab_one if number % 2 == 0 else tab_two
        answers.append(await send_chat(socket, f"f{number}", text=f"spam {number}"))
    assert [answer["type"] for answer in answers] == ["ack"] * 5 + ["error"] * 3
    assert {answer.get("code") for answer in answers[5:]} == {"rate_limited"}
    assert await sync_to_async(ChatMessage.objects.count)() == 5
    # The socket lives on.
    await tab_one.send_json_to({"type": "ping", "id": "alive"})
    assert (await next_of(tab_one, "pong"))["id"] == "alive"
    for socket in (tab_one, tab_two):
        await socket.disconnect()


async def test_muting_the_opponent_and_blocks_hide_their_chat(chat_match):
    match, (white, black, watcher), (white_cookie, black_cookie, watcher_cookie) = chat_match
    white_socket, _ = await open_socket(match.pk, white_cookie)
    white_tab, _ = await open_socket(match.pk, white_cookie)
    black_socket, _ = await open_socket(match.pk, black_cookie)
    spectator, _ = await open_socket(match.pk, watcher_cookie)
    await white_socket.send_json_to({"type": "chat_mute", "id": "m", "mute": True})
    assert (await next_of(white_socket, "ack"))["muted"] is True
    assert (await next_of(white_tab, "chat_muted"))["muted"] is True  # the other tab follows
    await asyncio.sleep(0)
    await send_chat(black_socket, "b", text="you are bad")
    await mark([(white_socket, "mark-w")])
    assert await chats_until(white_socket, "mark-w") == []
    assert await chats_until(white_tab, "mark-w") == []
    assert [m["text"] for m in await chats_until(spectator, "mark-w")] == ["you are bad"]
    _, snapshot = await open_socket(match.pk, white_cookie)
    assert [m["text"] for m in snapshot["state"]["chat"]["messages"]] == ["mark-w"]
    assert snapshot["state"]["chat"]["opponent_muted"] is True
    # A spectator cannot mute anyone.
    await spectator.send_json_to({"type": "chat_mute", "id": "sm", "mute": True})
    assert (await next_of(spectator, "error"))["code"] == "not_a_player"

    # The spectator blocks Black: Black's messages stop reaching them (and theirs Black).
    await sync_to_async(moderation.block_add)(user=watcher, target=black)
    # The block reaches the open socket through the user's channel-layer group, a moment later:
    # Black writes until a message of theirs is withheld, and then every later one is.
    for attempt in range(40):
        await send_chat(black_socket, f"b{attempt}", text=f"probe {attempt}")
        await mark([(spectator, f"mark-s{attempt}")])
        if not await chats_until(spectator, f"mark-s{attempt}"):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the block never hid Black's chat from the open socket")
    await send_chat(black_socket, "b-last", text="still here")
    await mark([(spectator, "mark-last")])
    assert await chats_until(spectator, "mark-last") == []
    _, fresh = await open_socket(match.pk, watcher_cookie)  # a new socket reads the block
    assert "cb" not in {m["user"] for m in fresh["state"]["chat"]["messages"]}
    for socket in (white_socket, white_tab, black_socket, spectator):
        await socket.disconnect()


async def test_a_socket_opened_before_its_owner_accepted_gets_the_players_view(
    fixed_dice, client, settings
):
    """Black watched the open challenge, then accepted it (in another tab): the socket opened as
    a spectator's now follows the seat, so Black never gets the spectators' chat during play.
    Failed before the fix: the socket kept the spectator's view and relayed the spectators'
    chat to the player."""
    settings.CHAT_MESSAGES_PER_WINDOW = 100
    white, black, watcher = [await sync_to_async(make_user)(name) for name in ("ew", "eb", "es")]
    login = sync_to_async(cookie_for)
    cookies = [await login(client.__class__(), user) for user in (white, black, watcher)]
    match = await sync_to_async(services.match_create)(creator=white)
    early, snapshot = await open_socket(match.pk, cookies[1])
    assert snapshot["you"]["seat"] is None
    await sync_to_async(fixed_dice)(6, 1)
    await sync_to_async(services.match_accept)(user=black, match_id=match.pk)
    started = await next_of(early, "snapshot")
    assert started["you"]["seat"] == 1 and started["state"]["match"]["status"] == "active"
    spectator, _ = await open_socket(match.pk, cookies[2])
    assert (await send_chat(spectator, "s1", text="black, run"))["type"] == "ack"
    await mark([(early, "mark-b")])
    assert await chats_until(early, "mark-b") == []
    for socket in (early, spectator):
        await socket.disconnect()


@pytest.mark.parametrize("end", ["open", "cancelled"])
async def test_no_chat_on_a_match_that_never_started(fixed_dice, client, end):
    """An open (or cancelled) challenge has no chat: its creator and anyone watching are refused
    with `match_not_started`, and nothing is stored. Failed before the fix: both were stored."""
    creator, watcher = [await sync_to_async(make_user)(name) for name in ("nc_c", "nc_w")]
    match = await sync_to_async(services.match_create)(creator=creator)
    sockets = [
        (await open_socket(match.pk, await sync_to_async(cookie_for)(client.__class__(), user)))[0]
        for user in (creator, watcher)
    ]
    if end == "cancelled":
        await sync_to_async(services.match_cancel)(user=creator, match_id=match.pk)
    for number, socket in enumerate(sockets):
        for kind, fields in (("t", {"text": "hello"}), ("p", {"phrase": "good_luck"})):
            answer = await send_chat(socket, f"{kind}{number}", **fields)
            assert (answer["type"], answer["code"]) == ("error", "match_not_started"), answer
    assert not await sync_to_async(ChatMessage.objects.filter(match_id=match.pk).exists)()
    for socket in sockets:
        await socket.disconnect()
