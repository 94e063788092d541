"""The reconnect window counts from the match's start at the earliest (docs/protocol.md
`presence` and `claim`): a seat whose player never had a socket to the started match is away
since the start, a seat that lost its last socket after the start is away since then, and
nothing anyone saw while the challenge was open counts. Through the real ASGI application,
Redis and PostgreSQL, with RECONNECT_WINDOW_SECONDS shortened by the test's settings."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from games import presence, services
from games.models import Match
from tests.factories import make_user
from tests.games.conftest import cookie_for
from tests.games.test_consumers import connect, next_of_type

pytestmark = pytest.mark.django_db(transaction=True)

# Long enough for a claim sent right after the start to arrive inside it on a loaded machine.
WINDOW = 3


@pytest.fixture
def short_window(settings):
    settings.RECONNECT_WINDOW_SECONDS = WINDOW


@pytest.fixture
def two_players(client):
    creator, acceptor = make_user("rw_creator"), make_user("rw_acceptor")
    cookies = {
        "creator": cookie_for(client.__class__(), creator),
        "acceptor": cookie_for(client.__class__(), acceptor),
    }
    return creator, acceptor, cookies


async def claim(socket, ident: str) -> dict:
    """The sender's answer to a `claim` (events and presence in between are skipped)."""
    await socket.send_json_to({"type": "claim", "id": ident})
    while True:
        message = await socket.receive_json_from(timeout=5)
        if message.get("id") == ident:
            return message
        assert message["type"] in ("presence", "event", "snapshot"), message


async def status_of(match_id: int) -> tuple[str, str]:
    match = await sync_to_async(Match.objects.get)(pk=match_id)
    return match.status, match.end_reason


async def seconds_since_start(match_id: int) -> float:
    match = await sync_to_async(Match.objects.get)(pk=match_id)
    return time.time() - match.started_at.timestamp()


async def look_at_the_open_challenge(match_id: int) -> None:
    """A visitor who is not signed in opens the open challenge's socket once: both seats are
    empty, so the presence read then saw them away."""
    socket = await connect(match_id)
    assert (await next_of_type(socket, "snapshot"))["state"]["match"]["status"] == "open"
    await socket.disconnect()


@pytest.mark.parametrize("claimer", ["creator", "acceptor"])
async def test_time_away_before_the_start_never_counts(short_window, two_players, claimer):
    """A rated challenge whose page nobody kept open for longer than the window; once it is
    accepted, neither player may claim at once (the opponent's page is still loading). Failed
    before the fix: the seat had been marked away while the challenge was open, and the claim
    won the match, reason `abandoned`, rated."""
    creator, acceptor, cookies = two_players
    match = await sync_to_async(services.match_create)(creator=creator, rated=True)
    await look_at_the_open_challenge(match.pk)
    await asyncio.sleep(WINDOW + 0.5)
    await sync_to_async(services.match_accept)(user=acceptor, match_id=match.pk)
    socket = await connect(match.pk, cookies[claimer])
    snapshot = await next_of_type(socket, "snapshot")
    seat = snapshot["you"]["seat"]
    # The opponent is away since the start, not since the look at the open challenge.
    assert snapshot["state"]["away_ms"][str(1 - seat)] <= 1000 * await seconds_since_start(match.pk)
    answer = await claim(socket, "now")
    assert (answer["type"], answer["code"]) == ("error", "reconnect_window"), answer
    assert await status_of(match.pk) == ("active", "")
    await socket.disconnect()


async def test_nothing_is_away_before_the_start(two_players):
    """While a challenge is open there is no window: no seat is reported away."""
    creator, _, cookies = two_players
    match = await sync_to_async(services.match_create)(creator=creator)
    await look_at_the_open_challenge(match.pk)
    reading = await presence.presence_read(match.pk)
    assert reading.away_ms == {"0": None, "1": None}
    socket = await connect(match.pk, cookies["creator"])
    snapshot = await next_of_type(socket, "snapshot")
    assert snapshot["state"]["away_ms"] == {"0": None, "1": None}
    await socket.disconnect()


async def test_an_opponent_who_never_came_has_the_window_from_the_start(short_window, two_players):
    """Nobody has a socket when the match starts; the creator comes when most of the window is
    gone. The acceptor's window ran from the start (the creator sees it, and may claim as soon
    as it is over), not from when the creator first looked."""
    creator, acceptor, cookies = two_players
    match = await sync_to_async(services.match_create)(creator=creator, rated=True)
    await sync_to_async(services.match_accept)(user=acceptor, match_id=match.pk)
    await asyncio.sleep(WINDOW * 0.75)
    socket = await connect(match.pk, cookies["creator"])
    snapshot = await next_of_type(socket, "snapshot")
    assert snapshot["state"]["presence"]["1"] is False
    assert snapshot["state"]["away_ms"]["1"] >= WINDOW * 750
    await asyncio.sleep(max(0.0, WINDOW + 0.2 - await seconds_since_start(match.pk)))
    answer = await claim(socket, "after")
    assert answer["type"] == "ack", answer
    assert await status_of(match.pk) == ("finished", "abandoned")
    await socket.disconnect()


async def test_a_player_who_leaves_after_the_start_has_the_window_from_leaving(
    short_window, two_players
):
    """The acceptor was at the table longer than the window, then closed the page: the window
    runs from then, and after it the creator claims (rated, reason `abandoned`)."""
    creator, acceptor, cookies = two_players
    match = await sync_to_async(services.match_create)(creator=creator, rated=True)
    await sync_to_async(services.match_accept)(user=acceptor, match_id=match.pk)
    white = await connect(match.pk, cookies["creator"])
    black = await connect(match.pk, cookies["acceptor"])
    for socket in (white, black):
        await next_of_type(socket, "snapshot")
    answer = await claim(white, "here")
    assert answer["code"] == "opponent_present", answer
    await asyncio.sleep(WINDOW + 0.5)
    await black.disconnect()
    left_at = time.monotonic()
    answer = await claim(white, "just-left")
    assert answer["code"] == "reconnect_window", answer
    await asyncio.sleep(max(0.0, WINDOW + 0.2 - (time.monotonic() - left_at)))
    answer = await claim(white, "window-over")
    assert answer["type"] == "ack", answer
    assert await status_of(match.pk) == ("finished", "abandoned")
    await white.disconnect()


async def test_a_socket_opened_before_the_accept_holds_the_seat_after_it(short_window, two_players):
    """The acceptor had the open challenge's socket open before accepting: once the match
    starts, that socket is the acceptor's seat (a fresh snapshot says so, presence shows the
    seat here), so the creator's claim is refused with `opponent_present`, and the socket plays.
    Failed before the fix: the socket stayed a spectator's."""
    creator, acceptor, cookies = two_players
    match = await sync_to_async(services.match_create)(creator=creator, rated=True)
    early = await connect(match.pk, cookies["acceptor"])
    assert (await next_of_type(early, "snapshot"))["you"]["seat"] is None
    await sync_to_async(services.match_accept)(user=acceptor, match_id=match.pk)
    while (message := await early.receive_json_from(timeout=5))["type"] != "snapshot":
        assert message["type"] in ("presence", "event"), message
    assert message["you"]["seat"] == 1 and message["state"]["match"]["status"] == "active"
    white = await connect(match.pk, cookies["creator"])
    snapshot = await next_of_type(white, "snapshot")
    assert snapshot["state"]["presence"] == {"0": True, "1": True}
    await asyncio.sleep(WINDOW + 0.5)
    answer = await claim(white, "present")
    assert answer["code"] == "opponent_present", answer
    # The early socket's commands are now the player's: its claim is answered as one.
    answer = await claim(early, "mine")
    assert answer["code"] == "opponent_present", answer
    for socket in (early, white):
        await socket.disconnect()
