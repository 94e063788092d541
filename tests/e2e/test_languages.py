"""The language selector in a real browser: the home, play, match and rules pages in Russian and
Greek, with no English sentence of the catalog left after the scripts ran, and nothing wider than
a phone. With I18N_SCREENSHOTS=<folder> it also saves phone and desktop screenshots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games import services
from tests.e2e.test_live_match import off_the_browser_thread
from tests.factories import make_user
from tests.i18n.catalog_text import english_sentences

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# What each page must say once its script has run, per language (from the catalogs); the match
# page's is its rules line ("Traditional · to 1 · 60 s"), drawn by the page's script.
EXPECTED = {
    "ru": {"rules": "Правила длинных нард", "match": "до 1", "play": "Открытые вызовы"},
    "el": {
        "rules": "Μακρύ νάρδι: οι κανόνες",
        "match": "στους 1",
        "play": "Ανοιχτές προκλήσεις",
    },
}


@pytest.fixture
def live_match():
    """An accepted match anyone may watch (made on another thread: services publish through
    async_to_sync, which the session's running browser loop in this thread would refuse)."""
    creator, opponent = make_user(), make_user()
    match = off_the_browser_thread(
        services.match_create, creator=creator, turn_seconds=60, rated=False
    )
    off_the_browser_thread(services.match_accept, user=opponent, match_id=match.pk)
    return match


def english_on(page, locale: str) -> list[str]:
    text = page.inner_text("body")
    return [sentence for sentence in english_sentences(locale) if sentence in text]


def choose_language(page, native_name: str, code: str) -> None:
    with page.expect_navigation():
        page.select_option("#language-select", label=native_name)
    assert page.get_attribute("html", "lang") == code


def check_pages(page, site, match, code: str, locale: str, shots: Path | None, size: str) -> None:
    pages = {
        "home": "/",
        "play": "/play/",
        "rules": "/rules/",
        "match": f"/matches/{match.pk}/",
    }
    for name, path in pages.items():
        # The document, not every subresource: what this test checks is the page's language,
        # which the document carries.
        page.goto(site.url + path, wait_until="domcontentloaded")
        if name == "match":  # the script fills the page from the socket's snapshot
            page.wait_for_function(
                "() => document.getElementById('match-app').dataset.version !== ''", timeout=20000
            )
            page.wait_for_function(
                "() => !document.getElementById('status').textContent.includes('…')", timeout=20000
            )
        assert page.get_attribute("html", "lang") == code, name
        if name in EXPECTED[code]:
            assert EXPECTED[code][name] in page.inner_text("body"), (code, name)
        assert english_on(page, locale) == [], f"English on the {name} page in {code}"
        width = page.evaluate("document.documentElement.scrollWidth")
        viewport = page.viewport_size["width"]
        assert width <= viewport, f"{name} in {code} scrolls sideways ({width}px > {viewport}px)"
        if shots is not None:
            page.screenshot(path=str(shots / f"{code}-{name}-{size}.png"), full_page=True)


def test_selector_switches_the_match_and_rules_pages_to_russian_then_greek(
    site, live_match, browser
):
    shots = Path(os.environ["I18N_SCREENSHOTS"]) if os.environ.get("I18N_SCREENSHOTS") else None
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    desktop = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = desktop.new_page()
    page.goto(site.url + "/")
    assert page.get_attribute("html", "lang") == "en"
    choose_language(page, "Русский", "ru")
    page.get_by_role("link", name="Правила", exact=True).click()
    page.wait_for_url("**/rules/")
    assert page.get_by_role("heading", name="Правила длинных нард").is_visible()
    check_pages(page, site, live_match, "ru", "ru", shots, "desktop")

    # check_pages ended on the match page: switching there brings the same match back, in Greek.
    choose_language(page, "Ελληνικά", "el")
    assert page.url.endswith(f"/matches/{live_match.pk}/"), "the selector returns to the page"
    check_pages(page, site, live_match, "el", "el", shots, "desktop")
    cookies = {cookie["name"]: cookie["value"] for cookie in desktop.cookies()}
    desktop.close()

    for code in ("ru", "el"):
        phone = browser.new_context(viewport=PHONE, is_mobile=True, locale="en-US")
        phone.add_cookies([{"name": "django_language", "value": code, "url": site.url}])
        check_pages(phone.new_page(), site, live_match, code, code, shots, "phone")
        phone.close()
    assert cookies["django_language"] == "el"


def test_a_first_visit_follows_the_browsers_language(site, browser):
    context = browser.new_context(viewport=DESKTOP, locale="el-GR")
    page = context.new_page()
    page.goto(site.url + "/rules/")
    assert page.get_attribute("html", "lang") == "el"
    assert page.get_by_role("heading", name="Μακρύ νάρδι: οι κανόνες").is_visible()
    assert page.locator("#language-select").input_value() == "el"
    context.close()
