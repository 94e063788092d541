"""The home page's small live boards (games/live_boards.py, docs/protocol.md "Live boards"): the
selector's choice and order, one send per change however often the beat runs, and the lobby
socket of the home page, which gets the kept boards on connect and each new one, never the lists."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from accounts.selectors import PLAYERS_ONLINE_CACHE_KEY
from games import live_boards, selectors, services
from games.models import Match
from games.services.bots import bot_account
from nardy.sequences import Step
from ratings.models import Rating
from tests.factories import make_user
from tests.ratings.test_leaderboards import rated_player
from web.asgi import application

ORIGIN = (b"origin", b"http://localhost")


def started(creator, opponent, fixed_dice, *, length: int = 1) -> Match:
    """A match between two players, its creator (White: the opening 6 against 1) to roll."""
    match = services.match_create(creator=creator, length=length, turn_seconds=120)
    fixed_dice(6, 1)
    services.match_accept(user=opponent, match_id=match.pk)
    return Match.objects.get(pk=match.pk)


@pytest.mark.django_db
def test_the_strongest_matches_come_first_and_the_computers_last(fixed_dice, monkeypatch):
    weak = started(rated_player("weak_a", "1400"), rated_player("weak_b", "1450"), fixed_dice)
    strong = started(rated_player("strong_a", "2100"), make_user("newcomer"), fixed_dice, length=3)
    # A bot rated above everyone still comes after the matches of two people.
    Rating.objects.update_or_create(
        user=bot_account("master"), defaults={"rating": 3000, "experience": 100}
    )
    computer = services.match_create_vs_bot(user=rated_player("versus_bot", "1500"), level="master")
    shown = selectors.live_boards()
    assert [m["match_id"] for m in shown] == [strong.pk, weak.pk, computer.pk]
    first = shown[0]
    assert [p["username"] for p in first["players"]] == ["strong_a", "newcomer"]
    assert [(p["rating"], p["provisional"], p["score"]) for p in first["players"]] == [
        (2100, False, 0),
        (1500, True, 0),
    ]
    assert [p["side"] for p in first["players"]] == ["w", "b"]  # the creator won the opening
    assert first["length"] == 3 and first["turn"] == "w" and len(first["board"]) == 24
    assert sum(first["board"]) == 0 and max(first["board"]) == 15  # the start, nothing played
    monkeypatch.setattr(selectors, "LIVE_BOARDS_SHOWN", 1)
    assert [m["match_id"] for m in selectors.live_boards(1)] == [strong.pk]


@pytest.mark.django_db
def test_a_board_is_sent_once_per_change_however_often_the_beat_runs(fixed_dice):
    white, black = make_user("sent_w"), make_user("sent_b")
    match = started(white, black, fixed_dice)
    cache.delete(PLAYERS_ONLINE_CACHE_KEY)
    assert live_boards.publish() is True
    assert live_boards.latest()["matches"][0]["dice"] is None  # White is to roll
    assert live_boards.publish() is False  # nothing moved: nothing sent
    fixed_dice(6, 5)
    services.game_roll(user=white, match_id=match.pk, version=None)
    assert live_boards.publish() is True
    assert live_boards.latest()["matches"][0]["dice"] == [6, 5]
    services.game_step_play(user=white, match_id=match.pk, version=None, step=Step(24, 18, 6))
    assert live_boards.publish() is True
    board = live_boards.latest()["matches"][0]["board"]
    assert board[23] == 14 and board[17] == 1  # a checker left White's 24 for its 18
    assert live_boards.publish() is False


async def _home_socket(path: str = "/ws/lobby/?boards=1") -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, path, headers=[ORIGIN, (b"host", b"localhost")])
    assert (await socket.connect())[0]
    return socket


@pytest.mark.django_db(transaction=True)
async def test_the_home_socket_gets_the_kept_boards_then_each_new_one_and_no_lists(fixed_dice):
    white = await sync_to_async(make_user)("home_w")
    black = await sync_to_async(make_user)("home_b")
    match = await sync_to_async(started)(white, black, fixed_dice)
    await sync_to_async(live_boards.publish)()
    home = await _home_socket()
    kept = await home.receive_json_from(timeout=5)
    assert kept["type"] == "live_boards"
    assert [m["match_id"] for m in kept["matches"]] == [match.pk]
    assert (await home.receive_json_from(timeout=5))["type"] == "pools"  # quick pairing's
    await sync_to_async(fixed_dice)(6, 5)
    await sync_to_async(services.game_roll)(user=white, match_id=match.pk, version=None)
    await sync_to_async(live_boards.publish)()
    moved = await home.receive_json_from(timeout=5)
    assert moved["type"] == "live_boards" and moved["matches"][0]["dice"] == [6, 5]
    # A new challenge changes the lobby's lists: the Play page hears of it, the home page not.
    await sync_to_async(services.match_create)(creator=await sync_to_async(make_user)("poster"))
    assert await home.receive_nothing(timeout=1.5)
    await home.disconnect()
