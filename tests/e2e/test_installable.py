"""The site installs as an app, checked in Chromium: the manifest has the required fields and
Chromium reports no installability error (DevTools' Page.getInstallabilityErrors); the service
worker registers from the root and activates; with the network gone (context.set_offline) a page,
a signed-in player's match page among them, gets the offline page and never a kept copy, while
the static files still come from the worker's cache, which holds nothing but static files and
the offline page. "Install the app" shows only when the browser offers it.

Screenshots of the offline page go to $SCREENSHOT_DIR when set (else the test's temporary
folder), to be looked at."""

from __future__ import annotations

import pytest

from games import services
from tests.e2e.pages import SIZES, shots_folder, signed_in_context, visitor_context
from tests.e2e.test_live_match import off_the_browser_thread
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONTROLLED = (
    "() => navigator.serviceWorker.controller"
    " && navigator.serviceWorker.controller.state === 'activated'"
)
KEPT_URLS = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      found.push(url.pathname + url.search);
    }
  }
  return found;
}"""
# A stand-in for Chromium's beforeinstallprompt (a headless browser never offers to install).
OFFER = """() => {
  const event = new Event("beforeinstallprompt", { cancelable: true });
  window.prompted = 0;
  event.prompt = () => { window.prompted += 1; };
  event.userChoice = Promise.resolve({ outcome: "accepted" });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}"""


def test_installable_with_a_worker_and_an_offline_page(browser, site, tmp_path):
    context = visitor_context(browser, site, size="phone", language="en", worker=True)
    page = context.new_page()
    page.goto(site.url + "/")
    page.wait_for_function(CONTROLLED)
    registration = page.evaluate(
        "async () => { const r = await navigator.serviceWorker.ready;"
        " return {scope: r.scope, script: r.active.scriptURL}; }"
    )
    assert registration == {
        "scope": site.url + "/",
        "script": site.url + "/sw.js?lang=en",
    }

    devtools = context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"] == site.url + "/manifest.webmanifest?lang=en"
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test's context is an incognito profile, where Chromium installs nothing whatever the
    # site: that one error is the browser's, every other is ours.
    assert [error for error in errors if error["errorId"] != "in-incognito"] == []
    fields = page.evaluate(f"fetch('{manifest['url']}').then((r) => r.json())")
    assert {
        "name",
        "short_name",
        "start_url",
        "display",
        "icons",
        "theme_color",
    } <= set(fields)
    assert fields["display"] == "standalone"

    # Unsupported (no offer yet): hidden; offered: shown, and pressing it prompts once.
    install = page.locator("#install-app")
    assert install.is_hidden()
    assert page.evaluate(OFFER) is True
    install.click()
    assert page.evaluate("window.prompted") == 1 and install.is_hidden()

    context.set_offline(True)
    page.goto(site.url + "/rules/")
    assert page.locator("#offline").is_visible()
    assert page.evaluate("fetch('/static/css/site.css').then((r) => r.status)") == 200
    context.set_offline(False)
    page.goto(site.url + "/rules/")
    assert page.locator("#offline").count() == 0
    context.close()


def test_a_match_page_is_never_kept(browser, site, client, tmp_path):
    shots = shots_folder(tmp_path)
    anna, boris = make_user("anna_offline"), make_user("boris_offline")
    match = off_the_browser_thread(services.match_create, creator=anna, rated=False)
    off_the_browser_thread(services.match_accept, user=boris, match_id=match.pk)
    for language in ("en", "ru"):
        for size in SIZES:
            for scheme in ("light", "dark"):
                context = signed_in_context(
                    browser,
                    site,
                    client.__class__,
                    anna,
                    size=size,
                    language=language,
                    worker=True,
                )
                page = context.new_page()
                page.emulate_media(color_scheme=scheme)
                page.goto(f"{site.url}/matches/{match.pk}/")
                page.wait_for_function(CONTROLLED)
                page.reload()  # now through the worker
                page.wait_for_selector(".board-svg .checker")
                kept = page.evaluate(KEPT_URLS)
                assert f"/offline/?lang={language}" in kept
                assert all(
                    url.startswith("/static/") for url in kept if not url.startswith("/offline/")
                )
                context.set_offline(True)
                page.goto(f"{site.url}/matches/{match.pk}/")
                assert page.locator("#offline").is_visible()
                assert page.locator(".board-svg").count() == 0
                assert anna.username not in page.content()
                page.screenshot(path=shots / f"offline-{scheme}-{size}-{language}.png")
                context.set_offline(False)
                context.close()
