"""Greek pages in a real browser speak to the player in the familiar singular and name players
without a gendered article (docs/glossary.md, "Address"): a profile's record against the viewer
and the report form, on a phone (390x844) and a desktop (1280x800).

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import SIZES, shots_folder, signed_in_context
from tests.factories import make_user
from tests.ratings.conftest import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", list(SIZES))
def test_greek_names_players_without_an_article(browser, site, client, tmp_path, size):
    anna, boris = make_user(f"anna_el_{size}"), make_user(f"boris_el_{size}")
    match = finished_match(boris, anna, score_creator=1)
    context = signed_in_context(browser, site, client.__class__, anna, size=size, language="el")
    page = context.new_page()
    page.goto(f"{site.url}/@/{boris.username}")
    record = page.locator("#head-to-head")
    expect(record).to_have_text(
        f"Εσύ και {boris.username}: {boris.username} κέρδισε 1, εσύ κέρδισες 0."
    )
    page.screenshot(path=shots_folder(tmp_path) / f"greek-profile-{size}.png", full_page=True)
    page.goto(f"{site.url}/@/{boris.username}/report")
    expect(page.locator("#report-intro")).to_contain_text("Αν διαλέξεις ένα ματς")
    expect(page.locator("#report-form")).to_contain_text(f"#{match.pk} · ")
    expect(page.locator("#report-form")).to_contain_text("έχασες 0:1")
    body = page.locator("main").inner_text()
    for polite in ("Ο/Η", "τον/την", "μπορείτε", "Επιλέξτε"):
        assert polite not in body
    page.screenshot(path=shots_folder(tmp_path) / f"greek-report-{size}.png", full_page=True)
    context.close()
