"""Every visible link and button of the main pages reads at 4.5:1 or better against what is behind
it, computed in Chromium (tests/e2e/contrast.py), on a phone (390x844, the menu open) and a
desktop (1280x800), in English and Russian; and the challenge notice's Decline with it.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import pytest

from games.services.challenges import challenge_direct
from tests.e2e.contrast import low_contrast
from tests.e2e.pages import SIZES, shots_folder, signed_in_context
from tests.e2e.test_live_match import off_the_browser_thread
from tests.factories import make_user
from tests.ratings.conftest import play_rated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_links_and_buttons_read_at_4_5_to_1(browser, site, client, tmp_path, language):
    shots = shots_folder(tmp_path)
    anna, boris = make_user(f"anna_contrast_{language}"), make_user(f"boris_contrast_{language}")
    play_rated(anna, boris, length=3)
    play_rated(boris, anna, length=1)
    paths = [
        "/", "/play/", "/watch/", "/leaderboard/", "/leaderboard/wins/", "/rules/",
        "/fairness/", f"/@/{boris.username}", f"/@/{anna.username}", "/settings/",
    ]  # fmt: skip
    failures: list[str] = []
    for size in SIZES:
        context = signed_in_context(
            browser, site, client.__class__, anna, size=size, language=language
        )
        page = context.new_page()
        for path in paths:
            page.goto(site.url + path)
            if size == "phone":
                page.locator("label.nav-toggle-label").click()  # the menu's links too
            failures += [f"{size} {path}: {item}" for item in low_contrast(page)]
        # The challenge notice, on top of a page (the site socket /ws/me/).
        page.goto(site.url + "/play/")
        page.wait_for_selector("body[data-site-socket=open]")
        off_the_browser_thread(challenge_direct, creator=boris, invited=anna, length=1)
        notice = page.locator(".site-notice")
        notice.wait_for(state="visible")
        decline = notice.get_by_role("button", name="Decline" if language == "en" else "Отказаться")
        assert decline.is_visible()
        failures += [f"{size} notice: {item}" for item in low_contrast(page)]
        page.screenshot(path=shots / f"contrast-notice-{size}-{language}.png")
        decline.click()
        page.wait_for_load_state()
        context.close()

        width, height = SIZES[size]
        anonymous = browser.new_context(viewport={"width": width, "height": height})
        anonymous.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
        page = anonymous.new_page()
        for path in ("/", "/accounts/login/", "/accounts/signup/", "/play/"):
            page.goto(site.url + path)
            failures += [f"{size} anonymous {path}: {item}" for item in low_contrast(page)]
        anonymous.close()
    assert not failures, "\n".join(failures)
