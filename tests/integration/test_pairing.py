"""Quick pairing over real sockets and real processes: two players paired into one
match, the 400-point confirmation accepted, declined and left unanswered, leaving the page,
200 players joining one pool at once through two Daphne processes, and a lobby page watching
bursts of pairings list every match of each burst.

The Celery beat's pool sweep is a service call (pairing.services.pools_sweep); these tests call
it themselves where the beat would, so each step happens when the test says.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from websockets.asyncio.client import connect

from games.models import Match
from pairing import services
from pairing.models import PairedWait, PoolEntry, Proposal
from tests.factories import make_user

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

POOL = "traditional.1.60.rated"


def cookie_of(user) -> str:
    """A signed-in session for `user`, made directly (faster than a login per player)."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"sessionid={session.session_key}"


def rated(username: str, rating: float):
    from ratings.models import Rating

    user = make_user(username)
    Rating.objects.create(user=user, rating=rating, peak=rating)
    return user


@pytest.fixture
def pairing_site(site):
    """The session's site: no cap on sockets per address (every player here is 127.0.0.1)."""
    return site


class Page:
    """A Play page's lobby socket."""

    def __init__(self, site, cookie: str) -> None:
        self.site, self.cookie = site, cookie

    async def __aenter__(self) -> Page:
        self._connection = connect(
            f"ws://127.0.0.1:{self.site.port}/ws/lobby/", origin=self.site.url,
            additional_headers={"Cookie": self.cookie} if self.cookie else {}, open_timeout=30,
        )  # fmt: skip
        self.socket = await self._connection.__aenter__()
        return self

    async def __aexit__(self, *exc) -> None:
        await self._connection.__aexit__(*exc)

    async def send(self, **message) -> None:
        await self.socket.send(json.dumps(message))

    async def until(self, *types: str, timeout: float = 30.0) -> dict:
        """The next message of one of `types` (others are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(
                await asyncio.wait_for(self.socket.recv(), deadline - time.monotonic())
            )
            if message["type"] in types:
                return message


@contextlib.asynccontextmanager
async def two_pages(site, first, second):
    cookies = await sync_to_async(lambda: (cookie_of(first), cookie_of(second)))()
    async with Page(site, cookies[0]) as a, Page(site, cookies[1]) as b:
        yield a, b


def test_two_players_on_one_tile_are_paired_into_the_same_match(pairing_site):
    first, second = rated("ana", 1500), rated("bogdan", 1540)

    async def scenario() -> tuple[dict, dict, dict]:
        async with two_pages(pairing_site, first, second) as (a, b):
            await a.send(type="pool_join", pool=POOL, id=1)
            waiting = await a.until("pool_waiting")
            await b.send(type="pool_join", pool=POOL, id=2)
            return waiting, await a.until("pool_matched"), await b.until("pool_matched")

    waiting, matched_a, matched_b = asyncio.run(scenario())
    assert (waiting["pool"], waiting["rating"]) == (POOL, 1500)
    assert 100 <= waiting["window"] < 130  # ±100 at once, widening by 10 a second
    assert matched_a["match_id"] == matched_b["match_id"]
    match = Match.objects.get(pk=matched_a["match_id"])
    assert {match.creator_id, match.opponent_id} == {first.pk, second.pk}
    assert match.status == "active"


def far_apart_waiting(users) -> None:
    """Both have waited past the widening (as if 31 s): the next sweep proposes them."""
    joined = PoolEntry.objects.get(user=users[0]).joined_at
    PoolEntry.objects.update(joined_at=joined - timedelta(seconds=31))


async def proposed(a, b, first, second) -> tuple[dict, dict]:
    await a.send(type="pool_join", pool=POOL)
    await a.until("pool_waiting")
    await b.send(type="pool_join", pool=POOL)
    await b.until("pool_waiting")
    await sync_to_async(far_apart_waiting)([first, second])
    await sync_to_async(services.pools_sweep)()
    return await a.until("pool_proposal"), await b.until("pool_proposal")


def test_a_far_pair_confirmed_by_both_starts_a_match(pairing_site):
    first, second = rated("ana", 1200), rated("bogdan", 1700)

    async def scenario():
        async with two_pages(pairing_site, first, second) as (a, b):
            offer_a, offer_b = await proposed(a, b, first, second)
            await a.send(type="pool_accept", proposal=offer_a["proposal"], id="a")
            await b.until("pool_opponent_accepted")
            await b.send(type="pool_accept", proposal=offer_b["proposal"], id="b")
            return offer_a, offer_b, await a.until("pool_matched"), await b.until("pool_matched")

    offer_a, offer_b, matched_a, matched_b = asyncio.run(scenario())
    assert (offer_a["opponent"], offer_a["rating"], offer_a["gap"], offer_a["seconds"]) == (
        "bogdan", 1700, 500, 15,
    )  # fmt: skip
    assert offer_b["opponent"] == "ana" and offer_b["proposal"] == offer_a["proposal"]
    assert matched_a["match_id"] == matched_b["match_id"]


def test_a_decline_returns_the_other_to_the_pool(pairing_site):
    first, second = rated("ana", 1200), rated("bogdan", 1700)

    async def scenario():
        async with two_pages(pairing_site, first, second) as (a, b):
            offer_a, _ = await proposed(a, b, first, second)
            await a.send(type="pool_decline", proposal=offer_a["proposal"])
            return await a.until("pool_left"), await b.until("pool_requeued")

    left, requeued = asyncio.run(scenario())
    assert left["reason"] == requeued["reason"] == "declined"
    assert list(PoolEntry.objects.values_list("user_id", "proposal")) == [(second.pk, None)]
    assert not Match.objects.exists()


def test_an_unanswered_offer_lapses_and_the_one_who_accepted_waits_on(pairing_site):
    first, second = rated("ana", 1200), rated("bogdan", 1700)

    async def scenario():
        async with two_pages(pairing_site, first, second) as (a, b):
            offer_a, _ = await proposed(a, b, first, second)
            await a.send(type="pool_accept", proposal=offer_a["proposal"], id=1)
            await b.until("pool_opponent_accepted")
            await sync_to_async(
                lambda: Proposal.objects.update(expires_at=Proposal.objects.get().created_at)
            )()
            await sync_to_async(services.pools_sweep)()
            return await a.until("pool_requeued"), await b.until("pool_left")

    requeued, left = asyncio.run(scenario())
    assert requeued["reason"] == left["reason"] == "expired"
    assert list(PoolEntry.objects.values_list("user_id", flat=True)) == [first.pk]


def test_leaving_the_page_leaves_the_pool_and_staying_keeps_the_place(pairing_site, settings):
    stays, leaves = rated("ana", 1500), rated("bogdan", 2300)
    stays_cookie, leaves_cookie = cookie_of(stays), cookie_of(leaves)

    async def scenario():
        async with Page(pairing_site, stays_cookie) as a:
            await a.send(type="pool_join", pool=POOL)
            await a.until("pool_waiting")
            async with Page(pairing_site, leaves_cookie) as b:
                await b.send(type="pool_join", pool=POOL)
                await b.until("pool_waiting")
            # The page is closed; the sweep notices once POOL_GONE_SECONDS have passed.
            await asyncio.sleep(settings.POOL_GONE_SECONDS + 2)
            await sync_to_async(services.pools_sweep)()
            waiting = await sync_to_async(
                lambda: list(PoolEntry.objects.values_list("user_id", flat=True))
            )()
            # The open page still gets its reports (the ones sent while the test slept first).
            while (report := await a.until("pool_waiting"))["waited"] < settings.POOL_GONE_SECONDS:
                pass
            return waiting, report

    waiting, report = asyncio.run(scenario())
    assert waiting == [stays.pk]
    assert report["pool"] == POOL


def test_a_wait_survives_a_reconnect_to_another_process(pairing_site, sites):
    other_site = sites.another()  # a second process: the reconnect lands on another one
    player = rated("ana", 1500)
    cookie = cookie_of(player)

    async def scenario():
        async with Page(pairing_site, cookie) as page:
            await page.send(type="pool_join", pool=POOL)
            first = await page.until("pool_waiting")
        async with Page(other_site, cookie) as page:
            return first, await page.until("pool_waiting")

    first, resumed = asyncio.run(scenario())
    assert resumed["pool"] == POOL and resumed["waited"] >= first["waited"]
    assert PoolEntry.objects.filter(user=player).count() == 1


# --- 200 players at once through two Daphne processes --------------------------------------------

PLAYERS = 200


def test_200_players_joining_one_pool_at_once_through_two_daphnes_each_end_once(
    pairing_site, sites
):
    second_site = sites.another()  # a second process: the crowd joins through two at once
    users = crowd_of(PLAYERS)
    cookies = [cookie_of(user) for user in users]
    outcomes = asyncio.run(_crowd([pairing_site, second_site], cookies))
    assert len(outcomes) == PLAYERS
    matched = [outcome for outcome in outcomes if outcome["type"] == "pool_matched"]
    assert matched, outcomes[:5]
    for user in users:
        matches = Match.objects.filter(paired_waits__user=user).count()
        waiting = PoolEntry.objects.filter(user=user).count()
        assert matches + waiting == 1, (user.username, matches, waiting)
    assert PairedWait.objects.count() == 2 * Match.objects.count()
    # What the sockets were told agrees with the database: each match has exactly its two.
    by_match: dict[int, int] = {}
    for outcome in matched:
        by_match[outcome["match_id"]] = by_match.get(outcome["match_id"], 0) + 1
    assert set(by_match.values()) == {2}
    assert len(by_match) == Match.objects.count()


def crowd_of(count: int, name: str = "crowd", spread: int = 200) -> list:
    """Players rated 1400 to 1400 + spread - 1, made in bulk (no password hashing: they sign in
    by session)."""
    from accounts.models import User
    from ratings.models import Rating

    users = User.objects.bulk_create(
        User(username=f"{name}{n}", email=f"{name}{n}@example.com", password="!")
        for n in range(count)
    )
    Rating.objects.bulk_create(
        Rating(user=user, rating=1400 + (n * 37) % spread, peak=1400 + (n * 37) % spread)
        for n, user in enumerate(users)
    )
    return users


async def _crowd(sites, cookies) -> list[dict]:
    pages = [Page(sites[index % 2], cookie) for index, cookie in enumerate(cookies)]
    # The pages open a few at a time (each opening reads the lobby: Daphne gives a handshake
    # 5 s); then all 200 join at once.
    gate = asyncio.Semaphore(20)

    async def open_page(page: Page) -> Page:
        async with gate:
            opened = await page.__aenter__()
            await page.until("pools")
            return opened

    opened = await asyncio.gather(*(open_page(page) for page in pages))
    try:
        await asyncio.gather(*(page.send(type="pool_join", pool=POOL) for page in opened))

        async def outcome(page: Page) -> dict:
            # Matched at once, or still waiting once the crowd has settled (a wait report
            # after every join, then one every 2 s while waiting).
            first = await page.until("pool_matched", "pool_waiting", timeout=120)
            if first["type"] == "pool_matched":
                return first
            try:
                return await page.until("pool_matched", timeout=30)
            except TimeoutError:
                return first

        return await asyncio.gather(*(outcome(page) for page in opened))
    finally:
        await asyncio.gather(*(page.__aexit__(None, None, None) for page in opened))


# --- A lobby page watching bursts of pairings -----------------------------------------------------

BURSTS = 6
BURST_PLAYERS = 26  # paired at once into 13 matches, all close in rating


def test_a_lobby_page_lists_the_last_match_of_every_burst_of_pairings(pairing_site):
    """The Watch page's list once each burst has settled equals a freshly opened page's: the
    lobby socket coalesces a burst's changes into few refreshes, never dropping the last."""
    bursts = [
        [cookie_of(user) for user in crowd_of(BURST_PLAYERS, f"burst{number}_", spread=50)]
        for number in range(BURSTS)
    ]
    seen = asyncio.run(_watch_bursts(pairing_site, bursts))
    for number, (watched, fresh, active) in enumerate(seen):
        assert watched == fresh == active, (number, active - watched, watched - active)


async def _watch_bursts(site, bursts) -> list[tuple[set[int], set[int], set[int]]]:
    seen = []
    async with Page(site, "") as observer:
        await observer.until("lobby")
        for cookies in bursts:
            await _burst(site, cookies)
            watched = await _settled_lobby(observer, quiet=3.0)
            async with Page(site, "") as fresh:
                listed = await fresh.until("lobby")
            active = await sync_to_async(
                lambda: set(Match.objects.filter(status="active").values_list("pk", flat=True))
            )()
            seen.append((_live(watched), _live(listed), active))
    return seen


ARRIVAL_SECONDS = 0.05


async def _burst(site, cookies) -> None:
    """The players arrive within a second or so: each Play page opens (reading the lobby) and
    joins the pool as soon as its socket is up, while the earlier ones are being paired; each page
    leaves for its board as soon as it is matched."""

    async def arrive(number: int, cookie: str) -> None:
        await asyncio.sleep(number * ARRIVAL_SECONDS)
        async with Page(site, cookie) as page:
            await page.until("pools")
            await page.send(type="pool_join", pool=POOL)
            await page.until("pool_matched")

    await asyncio.gather(*(arrive(number, cookie) for number, cookie in enumerate(cookies)))


async def _settled_lobby(page: Page, quiet: float) -> dict:
    """The last `lobby` message before the socket stayed silent for `quiet` seconds."""
    latest = None
    while True:
        try:
            message = json.loads(await asyncio.wait_for(page.socket.recv(), quiet))
        except TimeoutError:
            assert latest is not None, "the lobby page heard of no change"
            return latest
        if message["type"] == "lobby":
            latest = message


def _live(lobby: dict) -> set[int]:
    return {match["id"] for match in lobby["live"]}
