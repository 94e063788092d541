"""Quick pairing in real browsers: two signed-in players click the same tile on the
Play page and both land on the same board; a third player sees a direct challenge pop up on
another page and accepts it; a player's second tab is shown the new seed commitment after the
first tab's join and joins on it. Screenshots of the Play page at phone and desktop sizes go to
/tmp/pairing-shots/ (looked at by hand)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.fairness import commitment
from games.models import Match
from pairing.models import PoolEntry
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/pairing-shots")


def test_two_players_click_the_same_tile_and_land_on_the_same_board(browser, site, client):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    first = logged_in_page(browser, site, client.__class__, ana)
    second = logged_in_page(browser, site, client.__class__, bogdan)
    tile = '[data-pool="traditional.1.60.rated"]'
    first.goto(f"{site.url}/play/")
    expect(first.locator("#online-count")).to_contain_text(re.compile(r"\d"))
    first.locator(tile).click()
    expect(first.locator("#pool-wait")).to_be_visible()
    expect(first.locator("#pool-status")).to_contain_text(re.compile(r"1[34]\d\d–1[56]\d\d"))
    SHOTS.mkdir(exist_ok=True)
    first.screenshot(path=SHOTS / "play-waiting-1100.png", full_page=True)
    second.goto(f"{site.url}/play/")
    second.locator(tile).click()
    first.wait_for_url(re.compile(r"/matches/\d+/$"), timeout=30_000)
    second.wait_for_url(re.compile(r"/matches/\d+/$"), timeout=30_000)
    assert first.url == second.url
    match = Match.objects.get(pk=int(first.url.rstrip("/").rsplit("/", 1)[1]))
    assert {match.creator_id, match.opponent_id} == {ana.pk, bogdan.pk}
    assert match.status == "active"
    # Nobody has moved yet: either may abort; the button is there for both.
    expect(first.locator("#abort-button")).to_be_visible()
    expect(second.locator("#abort-button")).to_be_visible()
    first.screenshot(path=SHOTS / "match-abortable-1100.png")


def test_a_direct_challenge_pops_up_on_another_page_and_is_accepted(browser, site, client):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    challenged = logged_in_page(browser, site, client.__class__, bogdan)
    challenged.goto(f"{site.url}/rules/")
    challenged.wait_for_selector("body[data-site-socket=open]")
    challenger = logged_in_page(browser, site, client.__class__, ana)
    challenger.goto(f"{site.url}/@/bogdan")
    challenger.locator("#challenge-button").click()
    challenger.locator("#challenge-form button[type=submit]").click()
    challenger.wait_for_url(re.compile(r"/matches/\d+/$"))
    notice = challenged.locator(".site-notice")
    expect(notice).to_contain_text("ana")
    challenged.screenshot(path=SHOTS / "challenge-notice-1100.png")
    notice.locator("button.primary").click()
    challenged.wait_for_url(re.compile(r"/matches/\d+/$"))
    assert challenged.url == challenger.url
    match = off_the_browser_thread(lambda: Match.objects.get(invited=bogdan))
    assert match.status == "active"


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_play_page_screenshots(browser, site, client, width, height):
    user = make_user(f"shot{width}")
    page = logged_in_page(browser, site, client.__class__, user)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site.url}/play/")
    expect(page.locator('[data-count-for="traditional.1.60.rated"]')).to_contain_text(
        re.compile(r"\d")
    )
    # Fair dice: the next match's server seed is committed to before any form is sent.
    expect(page.locator("#next-seed code")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"play-{width}.png", full_page=True)
    shown = page.locator("#next-seed code").inner_text()
    page.locator('[data-pool="tournament.5.60.rated"]').click()
    expect(page.locator("#pool-wait")).to_be_visible()
    # The join used that commitment; the page now shows the next one (games/next_seed.py).
    expect(page.locator("#next-seed code")).not_to_have_text(shown)
    expect(page.locator("#next-seed code")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    page.screenshot(path=SHOTS / f"play-waiting-{width}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_second_tab_is_shown_the_commitment_left_by_the_first_and_joins_on_it(
    browser, site, client
):
    ana = make_user("ana")
    first = logged_in_page(browser, site, client.__class__, ana)
    second = first.context.new_page()  # the same browser, another tab
    for tab in (first, second):
        tab.goto(f"{site.url}/play/")
        expect(tab.locator("#online-count")).to_contain_text(re.compile(r"\d"))
    shown = first.locator("#next-seed code").inner_text()
    expect(second.locator("#next-seed code")).to_have_text(shown)
    first.locator('[data-pool="traditional.1.60.rated"]').click()
    expect(first.locator("#pool-wait")).to_be_visible()
    # Both tabs now show the next commitment, without a reload.
    expect(second.locator("#next-seed code")).not_to_have_text(shown)
    fresh = second.locator("#next-seed code").inner_text()
    expect(first.locator("#next-seed code")).to_have_text(fresh)
    second.locator('[data-pool="tournament.5.90.rated"]').click()
    expect(second.locator("#pool-name")).to_contain_text("90")
    expect(second.locator("#pool-error")).to_be_hidden()
    entry = off_the_browser_thread(lambda: PoolEntry.objects.get(user=ana))
    assert (entry.turn_seconds, commitment(entry.server_seed)) == (90, fresh)
