"""Two signed-up players play a whole 1-point match by clicking the board in two browser
contexts, while an anonymous third context watches it to the same end."""

from __future__ import annotations

import itertools
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games import services
from games.dice import push_test_dice
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# High dice make the race short; the seam is the only way to fix them (tests/config proves
# production refuses it). Doubles included, so the head rule and four-step turns are exercised.
DICE_PATTERN = [6, 5, 6, 6, 5, 4, 6, 3, 5, 5, 4, 6, 6, 2, 4, 4, 5, 6, 3, 3, 6, 4]
MATCH_TIMEOUT_SECONDS = 600


@pytest.fixture
def seam_site(site, settings):
    """The session's site, with the dice seam on here too (its processes have it). The test
    clicks far faster than a person: lila-ws's 100 messages per 20 s would (rightly) close its
    sockets with 4008 part-way through, so the site lifts that limit (tests/conftest.py)."""
    settings.DEBUG = True
    settings.NARDY_TEST_DICE = True
    push_test_dice()  # empty the queue
    yield site
    push_test_dice()


def off_the_browser_thread(function, **arguments):
    """Run a service outside this thread: Playwright's sync API keeps an event loop running here,
    and services publish their events through async_to_sync, which refuses such a thread."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as executor:
        return executor.submit(function, **arguments).result()


def logged_in_page(browser, site, client_class, user):
    client = client_class()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": site.url}]
    )
    return context.new_page()


def play_one_action(page) -> bool:
    """Roll, or play one highlighted step, when it is this page's turn. True if it acted."""
    app = page.locator("#match-app")
    version = app.get_attribute("data-version")
    roll = page.locator("#roll-button")
    confirm = page.locator("#confirm-button")
    if confirm.is_visible() and confirm.is_enabled():  # "confirm my turn" (new players: guests)
        try:
            confirm.click(timeout=5_000)
        except PlaywrightTimeout:
            return False
    elif roll.is_visible() and roll.is_enabled():
        try:
            # The state may change between the look and the click (an event redraws the controls):
            # the caller's loop looks again; a page that never offers its roll again fails the
            # match deadline and the final comparison with the database.
            roll.click(timeout=5_000)
        except PlaywrightTimeout:
            return False
    else:
        sources = page.locator("[data-point].legal-source")
        if sources.count() == 0:
            return False
        try:
            # A click during the opponent's checker flight only lands the flight (docs: the board's
            # animation is skippable) and selects nothing: the caller's loop looks again.
            sources.first.click(timeout=5_000)
            page.locator(".legal-destination").first.click(timeout=5_000)
        except PlaywrightTimeout:
            return False
    # The server's event confirms the action: the version moves on. A click that landed while the
    # page was still drawing the previous event is simply tried again by the caller's loop; the
    # final assertions compare every page with the database, so nothing lost can hide.
    try:
        page.wait_for_function(
            "v => document.querySelector('#match-app').dataset.version !== v",
            arg=version,
            timeout=10_000,
        )
    except PlaywrightTimeout:
        return False
    return True


def test_two_players_play_a_whole_match_while_a_spectator_watches(browser, seam_site, client):
    white, black = make_user("clicker_white"), make_user("clicker_black")
    match = off_the_browser_thread(services.match_create, creator=white, turn_seconds=120)
    push_test_dice(6, 1, *itertools.islice(itertools.cycle(DICE_PATTERN), 1200))
    off_the_browser_thread(services.match_accept, user=black, match_id=match.pk)

    pages = [logged_in_page(browser, seam_site, client.__class__, user) for user in (white, black)]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{seam_site.url}/matches/{match.pk}/")
    spectator = browser.new_context(viewport={"width": 375, "height": 740}).new_page()
    spectator.goto(f"{seam_site.url}/matches/{match.pk}/")
    for page in [*pages, spectator]:
        page.wait_for_selector("#match-app[data-status]")  # set by the first render
    assert pages[0].locator("#match-app").get_attribute("data-side") == "w"
    assert pages[1].locator("#match-app").get_attribute("data-side") == "b"

    deadline = time.monotonic() + MATCH_TIMEOUT_SECONDS
    actions = 0
    while pages[0].locator("#match-app").get_attribute("data-result") is None:
        assert time.monotonic() < deadline, f"the match did not end after {actions} actions"
        acted = any([play_one_action(page) for page in pages])
        actions += acted
        if not acted:
            time.sleep(0.05)

    match.refresh_from_db()
    assert match.status == "finished" and match.end_reason == "finished"
    expected = f"{match.winner.username}:finished"
    final_board = list(match.games.get().board)
    for page in [*pages, spectator]:
        page.wait_for_selector(f'#match-app[data-result="{expected}"]')
        assert page.evaluate("window.matchApp.view.game.board") == final_board
        assert page.evaluate("window.matchApp.version") == match.version
    assert errors == []
    assert match.games.get().turns.count() > 20
