"""The rating board at a site's start, in a real browser: nobody is established yet, and the
first page lists the provisional players by rating with their "?" (never a bot), reading well on
a phone (390x844) and a desktop (1280x800), in English and Russian.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ratings.models import Rating
from ratings.tasks import refresh_boards
from tests.e2e.pages import SIZES, shots_folder, signed_in_context
from tests.e2e.test_live_match import off_the_browser_thread
from tests.ratings.test_leaderboards import rated_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLE = {"en": "Provisional players", "ru": "Игроки с предварительным рейтингом"}


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_board_at_launch_lists_provisional_players(
    browser, site, client, tmp_path, size, language
):
    # Only provisional players (the established of other tests are made provisional too: a
    # board at launch), and a bot among them that must not show.
    Rating.objects.update(experience=10)
    me = rated_player(f"me_{size}_{language}", "4001.2", experience=20)
    rated_player(f"rival_{size}_{language}", "4000", experience=49, wins=1)
    rated_player("master", "4100", experience=10, is_bot=True)
    off_the_browser_thread(refresh_boards)  # what the beat does once a minute
    context = signed_in_context(browser, site, client.__class__, me, size=size, language=language)
    page = context.new_page()
    page.goto(f"{site.url}/leaderboard/")
    expect(page.locator("#provisional-title")).to_have_text(TITLE[language])
    expect(page.locator("#leaderboard tbody tr[id^=row-]")).to_have_count(0)
    listed = page.locator("#provisional-board tbody tr")
    expect(listed.nth(0)).to_have_id(f"provisional-{me.username}")
    expect(listed.nth(0).locator("td").nth(1)).to_have_text("4001?")
    expect(listed.nth(1).locator("td").nth(1)).to_have_text("4000?")
    expect(page.locator("#provisional-master")).to_have_count(0)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size][0], f"the board scrolls sideways ({width})"
    page.screenshot(path=shots_folder(tmp_path) / f"provisional-{size}-{language}.png",
                    full_page=True)  # fmt: skip
    context.close()
