"""The tournament socket and pages through the real ASGI application and the Redis channel layer
(docs/protocol.md "Tournament socket"): the opening state, join and pause over the socket,
hostile frames refused, coalesced standings (one message per sweep, whatever happened), chat,
the pages and the profile's history."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from games import services as game_services
from tests.factories import PASSWORD
from tests.games.conftest import cookie_for
from tests.pairing.test_sockets import until
from tests.tournaments.conftest import arena, rated
from tournaments import live
from tournaments.models import ChatLine, Player, Status, Tournament
from tournaments.services.players import tournament_join
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def open_socket(tournament_id: int, user=None, query: str = "") -> WebsocketCommunicator:
    headers = HEADERS + ([await sync_to_async(cookie_for)(Client(), user)] if user else [])
    socket = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament_id}/{query}", headers=headers
    )
    assert (await socket.connect())[0]
    return socket


async def reply(socket, frame: dict) -> dict:
    await socket.send_json_to(frame)
    while (message := await socket.receive_json_from(timeout=5))["type"] not in ("ack", "error"):
        pass
    return message


async def test_the_socket_opens_with_the_standings_and_joins_and_pauses():
    tournament = await sync_to_async(arena)(running=False)
    ana = await sync_to_async(rated)("ana")
    socket = await open_socket(tournament.pk, ana)
    first = await until(socket, "standings")
    assert (first["status"], first["players"], first["me"]) == ("scheduled", 0, None)
    assert (await reply(socket, {"type": "join", "id": 1})) == {"type": "ack", "id": 1}
    again = await reply(socket, {"type": "join", "id": 2})
    assert (again["code"], again["id"]) == ("already_joined", 2)
    assert (await reply(socket, {"type": "pause", "pause": True}))["type"] == "ack"
    assert await sync_to_async(Player.objects.filter(user=ana, paused=True).exists)()
    await socket.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "pause", "pause": "yes"}, "bad_field"),
        ({"type": "pause"}, "bad_field"),
        ({"type": "page", "page": 0}, "bad_field"),
        ({"type": "page", "page": 2.5}, "bad_field"),
        ({"type": "page", "page": [1]}, "bad_field"),
        ({"type": "chat", "text": {"nested": ["x"]}}, "bad_field"),
        ({"type": "chat", "text": "x" * 141}, "too_long"),
        ({"type": "chat", "text": "\u202e"}, "bad_field"),
        ({"type": "withdraw"}, "not_joined"),
        ({"type": "launch"}, "unknown_type"),
        ({"type": "join", "id": {"x": 1}}, "bad_field"),
    ],
)
async def test_hostile_frames_are_refused_and_change_nothing(frame, code):
    tournament = await sync_to_async(arena)()
    bogdan = await sync_to_async(rated)("bogdan")
    socket = await open_socket(tournament.pk, bogdan)
    await until(socket, "standings")
    answer = await reply(socket, frame)
    assert (answer["type"], answer["code"]) == ("error", code)
    assert answer["message"]
    assert not await sync_to_async(Player.objects.exists)()
    assert not await sync_to_async(ChatLine.objects.exists)()
    await socket.disconnect()


async def test_a_visitor_watches_but_is_told_to_log_in_to_join():
    tournament = await sync_to_async(arena)()
    socket = await open_socket(tournament.pk)
    await until(socket, "standings")
    assert (await reply(socket, {"type": "join"}))["code"] == "login_required"
    await socket.disconnect()


async def test_a_private_tournament_needs_its_link():
    tournament = await sync_to_async(arena)(private=True)
    socket = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament.pk}/", headers=HEADERS
    )
    await socket.connect()
    assert (await socket.receive_json_from(timeout=5))["code"] == "not_found"
    await socket.disconnect()
    watcher = await open_socket(tournament.pk, query=f"?key={tournament.token}")
    assert (await until(watcher, "standings"))["status"] == "running"
    await watcher.disconnect()


async def test_many_changes_make_one_standings_message_per_sweep():
    tournament = await sync_to_async(arena)()
    players = [await sync_to_async(rated)(f"p{index}") for index in range(6)]
    watcher = await open_socket(tournament.pk)
    await until(watcher, "standings")
    for user in players:  # six joins, three matches started: many changes
        await sync_to_async(tournament_join)(user=user, tournament_id=tournament.pk)
    assert await sync_to_async(live.publish_changed)() == [tournament.pk]
    update = await until(watcher, "standings")
    assert update["players"] == 6
    assert await watcher.receive_nothing(timeout=0.5)  # one message for all of them
    assert await sync_to_async(live.publish_changed)() == []  # nothing new: nothing sent
    await watcher.disconnect()


async def test_chat_lines_reach_every_socket_of_the_tournament():
    tournament = await sync_to_async(arena)()
    ana, bogdan = await sync_to_async(rated)("ana2"), await sync_to_async(rated)("bogdan2")
    first, second = await open_socket(tournament.pk, ana), await open_socket(tournament.pk, bogdan)
    await until(first, "standings")
    await until(second, "standings")
    # A spectator's line is refused (the chat is the players'), a player's reaches everyone.
    assert (await reply(second, {"type": "chat", "text": "hi"}))["code"] == "not_joined"
    assert (await reply(first, {"type": "join"}))["type"] == "ack"
    assert (await reply(first, {"type": "chat", "text": " good luck all "}))["type"] == "ack"
    line = (await until(second, "chat"))["line"]
    assert (line["user"], line["text"]) == ("ana2", "good luck all")
    await first.disconnect()
    await second.disconnect()


def test_the_pages_render_and_a_player_creates_a_tournament(client):
    host = rated("host")
    client.login(username="host", password=PASSWORD)
    page = client.get(reverse("tournaments"))
    assert page.status_code == 200
    made = client.post(reverse("tournaments"), {
        "name": "Friday night", "rule_set_name": "traditional", "length": 1,
        "time_control": "turn", "turn_seconds": 60, "rated": "on", "minutes": 30,
        "starts_in": 15, "private": "on",
    })  # fmt: skip
    tournament = Tournament.objects.get(created_by=host)
    assert made.status_code == 302 and tournament.token in made["Location"]
    assert client.get(made["Location"]).status_code == 200
    client.logout()
    assert (
        client.get(reverse("tournament", kwargs={"tournament_id": tournament.pk})).status_code
        == 404
    )


def test_a_bad_form_changes_nothing(client):
    rated("host2")
    client.login(username="host2", password=PASSWORD)
    answer = client.post(reverse("tournaments"), {"name": "x", "length": 7, "minutes": 45})
    assert answer.status_code == 200
    assert not Tournament.objects.exists()


def test_the_profile_lists_finished_tournaments_with_the_place(client):
    from tournaments.services.clock import tournament_finish

    tournament = arena()
    ana, bogdan = rated("ana3"), rated("bogdan3")
    for user in (ana, bogdan):
        tournament_join(user=user, tournament_id=tournament.pk)
    match_id = Player.objects.get(user=ana).playing_id
    game_services.match_resign(user=bogdan, match_id=match_id)
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=tournament.starts_at + (
        tournament.ends_at - tournament.starts_at) / 100)  # fmt: skip
    tournament_finish(tournament_id=tournament.pk)
    assert Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED
    page = client.get(reverse("profile", kwargs={"username": "ana3"}))
    assert b"Evening arena" in page.content
    assert b'id="tournament-history"' in page.content
