"""Debian's coturn with the configuration `manage.py turnserver_conf` writes (make prod-check,
bench/coturn.py):

- Chromium, allowed only relayed candidates, gets one from it on the loopback with the credentials
  calls/ice.py makes for a person; with a credential signed by another secret, or one whose expiry
  has passed, coturn gives none (it checks the HMAC and the expiry itself).
- One person's credentials, collected the way a farming player collects them (a quick match, the
  page's `call_join`, the match over at once, again and again), hold at most the person's
  user-quota of relays at once: coturn answers 486 past it, whichever credential is used. Another
  person's call, in Chromium, still gets its relay.
"""

from __future__ import annotations

import asyncio
import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async

from bench.coturn import coturn_binary, running_coturn
from bench.turn_client import Allocation, TurnError, allocate
from calls.ice import turn_credentials
from calls.turnserver import USER_QUOTA
from games import services
from tests.calls.test_signalling import answer_to, match_socket
from tests.factories import make_user
from tests.games.conftest import cookie_for

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SECRET = "prod-check-turn-secret"
QUICK_MATCHES = USER_QUOTA + 6
GATHER = """async ({url, username, credential}) => {
  const pc = new RTCPeerConnection({iceServers: [{urls: url, username, credential}],
                                    iceTransportPolicy: 'relay'});
  pc.createDataChannel('check');
  const found = [];
  const done = new Promise(resolve => {
    pc.onicecandidate = event => {
      if (event.candidate) found.push(event.candidate.candidate);
      else resolve();
    };
    setTimeout(resolve, 10000);
  });
  await pc.setLocalDescription(await pc.createOffer());
  await done;
  pc.close();
  return found;
}"""


@pytest.fixture
def coturn(tmp_path, settings):
    """coturn on 127.0.0.1 with the generated configuration (relay ports on the loopback too),
    and the site's settings pointing at it."""
    if coturn_binary() is None:
        message = "no coturn: apt-get install coturn (.ci/run installs it)"
        pytest.fail(message) if os.environ.get("CI") == "true" else pytest.skip(message)
    settings.CALL_TURN_SECRET = SECRET
    with running_coturn(tmp_path) as port:
        settings.CALL_TURN_URLS = [f"turn:127.0.0.1:{port}?transport=udp"]
        yield port


def gathered(page, port: int, username: str, credential: str) -> list[str]:
    url = f"turn:127.0.0.1:{port}?transport=udp"
    return page.evaluate(GATHER, {"url": url, "username": username, "credential": credential})


def test_coturn_relays_for_the_credentials_of_a_person_and_refuses_others(coturn, browser):
    page = browser.new_context().new_page()

    def made(secret: str, now: float) -> list[str]:
        credentials = turn_credentials(secret=secret, user_id=42, now=now, ttl_seconds=600)
        return gathered(page, coturn, credentials.username, credentials.credential)

    relayed = made(SECRET, time.time())
    assert relayed and all(" typ relay " in line and " 127.0.0.1 " in line for line in relayed)
    assert made("another-secret", time.time()) == []
    assert made(SECRET, time.time() - 601) == []  # expired a second ago


def off_the_browser_thread(function, *arguments):
    """Playwright's sync API keeps an event loop running in this thread: the sockets below run
    in one loop of another thread (one loop for all: the channel layer keeps its connections
    per loop)."""
    with ThreadPoolExecutor(1) as executor:
        return executor.submit(lambda: asyncio.run(function(*arguments))).result()


async def joined(cookie, match_id: int) -> dict:
    """The TURN server of a `call_join`'s ack, as the page gets it."""
    socket = await match_socket(match_id, cookie)
    answer = await answer_to(socket, {"type": "call_join"}, "join")
    await socket.disconnect()
    assert answer["type"] == "ack", answer
    return answer["ice_servers"][-1]


async def quick_match_credentials(person, cookie, matches: int, dice) -> list[dict]:
    """A match, the page's call_join, the match resigned at once: `matches` times over."""
    collected = []
    for number in range(matches):
        match = await sync_to_async(services.match_create)(creator=person, rated=False)
        await sync_to_async(dice)(6, 1)
        opponent = await sync_to_async(make_user)(f"quick{number}")
        await sync_to_async(services.match_accept)(user=opponent, match_id=match.pk)
        collected.append(await joined(cookie, match.pk))
        await sync_to_async(services.match_resign)(user=person, match_id=match.pk, left_table=False)
    return collected


async def a_call_elsewhere(white, black, cookie, dice) -> dict:
    """Two other people's active match, and the TURN server one of them gets for the call."""
    match = await sync_to_async(services.match_create)(creator=white, rated=False)
    await sync_to_async(dice)(6, 1)
    await sync_to_async(services.match_accept)(user=black, match_id=match.pk)
    return await joined(cookie, match.pk)


def test_one_persons_credentials_from_many_matches_hold_their_quota_and_no_more(
    coturn, browser, client, fixed_dice
):
    farmer = make_user("turnfarm")
    farmer_cookie = cookie_for(client.__class__(), farmer)
    credentials = off_the_browser_thread(
        quick_match_credentials, farmer, farmer_cookie, QUICK_MATCHES, fixed_dice
    )
    held: list[Allocation] = []
    refused: list[int] = []
    try:
        for each in credentials:
            try:
                held.append(allocate("127.0.0.1", coturn, each["username"], each["credential"]))
            except TurnError as refusal:
                refused.append(refusal.code)
        print(f"\none person, {QUICK_MATCHES} matches' credentials: {len(held)} relays held, "
              f"{len(refused)} refused {sorted(set(refused))}")  # fmt: skip
        assert len(held) == USER_QUOTA
        assert set(refused) == {486}  # Allocation Quota Reached
        # An honest call elsewhere: two others in an active match; one of them in Chromium.
        white, black = make_user("turnhonw"), make_user("turnhonb")
        honest = off_the_browser_thread(
            a_call_elsewhere, white, black, cookie_for(client.__class__(), white), fixed_dice
        )
        page = browser.new_context().new_page()
        relayed = gathered(page, coturn, honest["username"], honest["credential"])
        assert relayed and all(" typ relay " in line for line in relayed)
        # The farmer's own browser, with a fresh credential of theirs, gets none.
        fresh = turn_credentials(secret=SECRET, user_id=farmer.pk, now=time.time(), ttl_seconds=600)
        assert gathered(page, coturn, fresh.username, fresh.credential) == []
    finally:
        for allocation in held:
            allocation.release()
