"""A challenge's creator in a real browser: the waiting view (what the challenge is, whom it waits
for, no board of borne-off checkers) with Cancel, and Cancel in the lobby's row; on a phone
(390x844) every table's action is on screen and the whole row opens it. Phone and desktop,
English and Russian.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Match
from games.services.challenges import challenge_direct
from tests.e2e.pages import SIZES, shots_folder, signed_in_context
from tests.e2e.test_live_match import off_the_browser_thread
from tests.factories import make_user
from tests.ratings.conftest import play_rated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"waiting": "Waiting for {name} to accept", "cancel": "Cancel the challenge",
           "lobby_cancel": "Cancel", "anyone": "Waiting for an opponent to accept"},
    "ru": {"waiting": "Ждём, пока {name} примет вызов", "cancel": "Отменить вызов",
           "lobby_cancel": "Отмена", "anyone": "Ждём, пока соперник примет вызов"},
}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_creator_waits_on_a_waiting_view_and_cancels(
    browser, site, client, tmp_path, size, language
):
    words = WORDS[language]
    anna, boris = make_user(f"anna_w_{size}_{language}"), make_user(f"boris_w_{size}_{language}")
    match = off_the_browser_thread(challenge_direct, creator=anna, invited=boris, length=3)
    context = signed_in_context(browser, site, client.__class__, anna, size=size, language=language)
    page = context.new_page()
    page.goto(f"{site.url}/matches/{match.pk}/")
    page.wait_for_selector("#match-app[data-status=open]")
    title = page.locator("#waiting h1")
    expect(title).to_have_text(words["waiting"].format(name=boris.username))
    # The status line (a live region, hidden while waiting: the title says it) says it too.
    expect(page.locator("#status")).to_have_text(words["waiting"].format(name=boris.username))
    assert not page.locator("#board").is_visible(), "no board of 30 borne-off checkers"
    cancel = page.get_by_role("button", name=words["cancel"])
    box = cancel.bounding_box()
    assert box and box["y"] + box["height"] <= SIZES[size][1], "Cancel is on the first screen"
    page.screenshot(path=shots_folder(tmp_path) / f"waiting-{size}-{language}.png")
    cancel.click()
    page.wait_for_url(re.compile(r"/play/$"))
    assert Match.objects.get(pk=match.pk).status == "cancelled"
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_cancel_in_the_lobby_row(browser, site, client, tmp_path, language):
    words = WORDS[language]
    anna, boris = make_user(f"anna_l_{language}"), make_user(f"boris_l_{language}")
    mine = off_the_browser_thread(services.match_create, creator=anna, length=1)
    context = signed_in_context(
        browser, site, client.__class__, anna, size="phone", language=language
    )
    page = context.new_page()
    page.goto(f"{site.url}/play/")
    row = page.locator(f'#open-challenges tr[data-match-id="{mine.pk}"]')
    expect(row.get_by_role("button", name=words["lobby_cancel"])).to_be_visible()
    # Someone else's challenge arrives over the lobby socket: the list is redrawn by lobby.js,
    # and the viewer's own row keeps its Cancel; the other row has none.
    theirs = off_the_browser_thread(services.match_create, creator=boris, length=3)
    other = page.locator(f'#open-challenges tr[data-match-id="{theirs.pk}"]')
    expect(other).to_be_visible()
    expect(other.get_by_role("button")).to_have_count(0)
    cancel = row.get_by_role("button", name=words["lobby_cancel"])
    box = cancel.bounding_box()
    assert box and box["x"] + box["width"] <= SIZES["phone"][0], "Cancel is on screen"
    row.scroll_into_view_if_needed()
    page.screenshot(path=shots_folder(tmp_path) / f"lobby-cancel-phone-{language}.png")
    cancel.click()
    page.wait_for_url(re.compile(r"/play/$"))
    expect(page.locator(f'#open-challenges tr[data-match-id="{mine.pk}"]')).to_have_count(0)
    assert Match.objects.get(pk=mine.pk).status == "cancelled"
    context.close()


# The row scrolled into view, its link box, and what a tap 5 px into its first cell hits, all
# in one script: the lobby socket may redraw the rows between two calls from the test.
ROW_GEOMETRY = """(selector) => {
  const row = document.querySelector(selector);
  if (!row) return null;
  row.scrollIntoView({block: "center", behavior: "instant"});
  const link = row.querySelector("a.row-link").getBoundingClientRect();
  const first = row.querySelector("td").getBoundingClientRect();
  const x = first.x + 5, y = first.y + first.height / 2;
  return {link: {x: link.x, width: link.width}, x, y,
          hit: document.elementFromPoint(x, y).outerHTML};
}"""


@pytest.mark.parametrize("language", ["en", "ru"])
def test_on_a_phone_a_tables_rows_are_tap_targets(browser, site, client, tmp_path, language):
    anna, boris = make_user(f"anna_t_{language}"), make_user(f"boris_t_{language}")
    play_rated(anna, boris, length=3)
    live = off_the_browser_thread(services.match_create, creator=anna, length=5)
    off_the_browser_thread(services.match_accept, user=boris, match_id=live.pk)
    context = signed_in_context(
        browser, site, client.__class__, boris, size="phone", language=language
    )
    page = context.new_page()
    width = SIZES["phone"][0]
    for path, row_selector, target in (
        ("/watch/", f"#live-matches tbody tr[data-match-id='{live.pk}']", f"/matches/{live.pk}/"),
        (f"/@/{anna.username}", "#match-history tbody tr", "/matches/"),
    ):
        page.goto(site.url + path)
        # The Watch list is redrawn whenever the lobby socket sends it (static/js/lobby.js; its
        # first message right after the page loads): a row found a moment ago may be gone when
        # it is measured. So: wait for this match's row, then scroll, measure and hit-test inside
        # one script, which no socket message can interrupt.
        expect(page.locator(f"{row_selector} a.row-link").first).to_be_visible()
        geometry = page.evaluate(ROW_GEOMETRY, row_selector)
        assert geometry, f"{path}: no row {row_selector}"
        right = geometry["link"]["x"] + geometry["link"]["width"]
        assert geometry["link"]["width"] > 0 and right <= width, (
            f"{path}: the row's action is off-screen"
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(
            path=shots_folder(tmp_path) / f"rows{path.replace('/', '-')}-{language}.png"
        )
        # A tap on the row's first cell, far from the link: the row's link covers the row (a
        # redrawn row is drawn in the same place).
        hit = geometry["hit"]
        assert "row-link" in hit, f"{path}: a tap at the row's start hits {hit[:120]}"
        page.mouse.click(geometry["x"], geometry["y"])
        page.wait_for_url(re.compile(re.escape(target)))
    context.close()
