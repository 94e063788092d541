"""Ratings in a real browser: a rated match ends (the loser resigns by clicking), both match
pages show the rating changes, the winner's profile chart gains the new point, and the
leaderboards read well on a phone (390x844) and a desktop (1280x800).

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from games import services
from ratings.models import RatingChange
from ratings.tasks import refresh_boards
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread
from tests.factories import make_user
from tests.ratings.conftest import play_rated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def polyline_points(page) -> list[str]:
    return page.locator("#rating-chart polyline").get_attribute("points").split()


def test_rated_match_end_shows_deltas_and_the_new_chart_point(browser, site, client, tmp_path):
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    winner, loser = make_user("zara_winner"), make_user("yusuf_loser")
    # Some history first, so the chart and the boards have something to show.
    rivals = [make_user(f"rival_{index}", password=None) for index in range(6)]
    for index, rival in enumerate(rivals * 3):
        if index % 3:
            play_rated(winner, rival, length=(3, 5, 7)[index % 3])
        else:
            play_rated(rival, winner, length=5)
    for rival in rivals:
        play_rated(rival, rivals[0] if rival != rivals[0] else rivals[1], length=7)

    match = off_the_browser_thread(services.match_create, creator=winner, length=3)
    off_the_browser_thread(services.match_accept, user=loser, match_id=match.pk)
    pages = [logged_in_page(browser, site, client.__class__, user) for user in (winner, loser)]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{site.url}/matches/{match.pk}/")
        page.wait_for_selector("#match-app[data-status]")  # set by the first render

    profile_url = f"{site.url}/@/{winner.username}"
    pages[0].goto(profile_url)
    points_before = polyline_points(pages[0])
    pages[0].goto(f"{site.url}/matches/{match.pk}/")
    pages[0].wait_for_selector("#match-app[data-status]")  # set by the first render

    pages[1].once("dialog", lambda dialog: dialog.accept())
    pages[1].locator("#resign-button").click()

    for page in pages:
        page.locator("#rating-changes li").first.wait_for(state="visible")
    changes = {change.user_id: change for change in RatingChange.objects.filter(match=match)}
    for page in pages:
        text = page.locator("#rating-changes").inner_text()
        gained = changes[winner.pk]
        assert f"{winner.username}: rating {gained.shown_before} → {gained.shown_after}" in text
        assert re.search(rf"{loser.username}: rating 1500 → \d+ \(-\d+\)", text)
    pages[0].screenshot(path=shots / "match-over-desktop.png")

    # A reload shows the same changes, rendered by the server.
    pages[1].reload()
    assert f"{winner.username}:" in pages[1].locator("#rating-changes").inner_text()

    pages[0].goto(profile_url)
    points_after = polyline_points(pages[0])
    assert len(points_after) == len(points_before) + 1
    last = pages[0].locator("#rating-chart-last title").text_content()
    assert int(last) == changes[winner.pk].shown_after
    assert errors == []

    # The boards' pages are listed by the beat once a minute and kept for three (ratings/tasks.py,
    # ratings/selectors.py): this site runs no beat, and an earlier test may have viewed a board
    # before these matches were played, so the beat's task lists them now, as it would have.
    off_the_browser_thread(refresh_boards)
    for size, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"{site.url}/leaderboard/")
        rows = page.locator("#leaderboard tbody tr[id^=row-]")
        assert rows.count() >= 1
        page.screenshot(path=shots / f"leaderboard-rating-{size}.png", full_page=True)
        page.get_by_role("link", name="Wins", exact=True).click()
        page.wait_for_url("**/leaderboard/wins/")
        first = page.locator("#leaderboard tbody tr[id^=row-]").first
        assert first.get_attribute("id") == f"row-{winner.username}"
        first.locator("a").click()
        page.wait_for_url(f"**/@/{winner.username}")
        assert page.locator("#rating-chart").is_visible()
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= width, f"the profile scrolls sideways at {width}px ({scroll_width})"
        page.screenshot(path=shots / f"profile-{size}.png", full_page=True)
        page.goto(f"{site.url}/leaderboard/week/")
        page.screenshot(path=shots / f"leaderboard-week-{size}.png", full_page=True)
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= width, f"the board scrolls sideways at {width}px ({scroll_width})"
        context.close()
