"""An incoming direct challenge marks the challenged player's tab, in a real browser: the title
says who challenges ("⚔ Challenge from ana · ...") and the icon changes while the challenge
waits, and both come back when it is withdrawn, lapses, is declined or accepted in another tab
(static/js/tab.js, notify.js). Phone and desktop, English and Russian.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at:
the page with the notice, and the tab's icon drawn large (a screenshot has no tab strip)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Match
from games.services import match_cancel
from games.services.challenges import challenge_direct, challenges_expire
from tests.e2e.pages import SIZES, shots_folder, signed_in_context
from tests.e2e.test_live_match import off_the_browser_thread
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"one": "Challenge from {name}", "decline": "Decline", "accept": "Accept"},
    "ru": {"one": "Вызов от {name}", "decline": "Отказаться", "accept": "Принять"},
}
ICON = "link[rel~='icon']"


def lapse(match_id: int) -> None:
    past = timezone.now() - datetime.timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(expires_at=past)
    challenges_expire(match_id=match_id)


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_challenge_marks_the_tab_until_it_ends(browser, site, client, tmp_path, size, language):
    words = WORDS[language]
    ana, bogdan = make_user(f"ana_t_{size}_{language}"), make_user(f"bogdan_t_{size}_{language}")
    context = signed_in_context(
        browser, site, client.__class__, bogdan, size=size, language=language
    )
    page = context.new_page()
    page.goto(f"{site.url}/rules/")
    page.wait_for_selector("body[data-site-socket=open]")
    own_title = page.title()
    own_icon = (
        page.locator(ICON).first.get_attribute("href") if page.locator(ICON).count() else None
    )
    marked = f"⚔ {words['one'].format(name=ana.username)} · {own_title}"

    def challenge():
        match = off_the_browser_thread(
            challenge_direct, creator=ana, invited=bogdan, turn_seconds=60
        )
        expect(page).to_have_title(marked)
        expect(page.locator(ICON)).to_have_attribute("data-challenge", "1")
        return match

    def restored():
        expect(page).to_have_title(own_title)
        expect(page.locator(".site-notice")).to_have_count(0)
        expect(page.locator(ICON)).to_have_attribute("data-challenge", "")
        if own_icon is not None:
            expect(page.locator(ICON)).to_have_attribute("href", own_icon)

    # Withdrawn by its creator.
    match = challenge()
    page.screenshot(path=shots_folder(tmp_path) / f"challenge-tab-{size}-{language}.png")
    off_the_browser_thread(match_cancel, user=ana, match_id=match.pk)
    restored()
    # Lapsed (the worker's sweep, run here as beat would).
    match = challenge()
    off_the_browser_thread(lapse, match_id=match.pk)
    restored()
    # Declined, then accepted, in another tab of the same player.
    for button in ("decline", "accept"):
        match = challenge()
        other = context.new_page()
        other.goto(f"{site.url}/rules/")
        other.locator(".site-notice").get_by_role("button", name=words[button]).click()
        if button == "accept":
            other.wait_for_url(re.compile(rf"/matches/{match.pk}/$"))
        restored()
        other.close()
    # The icon itself, drawn large for the screenshot.
    icon = page.locator(ICON).first
    off_the_browser_thread(challenge_direct, creator=make_user(f"cara_{size}_{language}"),
                           invited=bogdan, turn_seconds=60)  # fmt: skip
    expect(icon).to_have_attribute("data-challenge", "1")
    href = icon.get_attribute("href")
    page.set_content(f'<img src="{href}" width="128" height="128">')
    page.screenshot(path=shots_folder(tmp_path) / f"challenge-icon-{size}-{language}.png")
    context.close()
