"""The layout in a real browser: navigation on desktop and behind the menu button on a phone."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_navigation_on_desktop_and_phone(browser, site):
    desktop = browser.new_context(viewport={"width": 1280, "height": 800})
    page = desktop.new_page()
    page.goto(site.url + "/")
    page.get_by_role("link", name="Rules", exact=True).click()
    page.wait_for_url("**/rules/")
    assert page.get_by_role("heading", name="Rules of Long Nardy").is_visible()
    desktop.close()

    phone = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    page = phone.new_page()
    page.goto(site.url + "/")
    rules_link = page.get_by_role("link", name="Rules", exact=True)
    assert not rules_link.is_visible()
    page.locator("label.nav-toggle-label").click()
    assert rules_link.is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width}px)"
    phone.close()
