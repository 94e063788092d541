"""What the page tests share: the two sizes every page is looked at (a phone, 390x844, and a
desktop, 1280x800), a signed-in context in a language, and where screenshots go ($SCREENSHOT_DIR
when set, else the test's temporary folder), to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def visitor_context(browser, site, *, size, language, worker=False):
    """A context of `size` whose pages ask for `language`, signed in as nobody; with `worker`,
    the site's service worker runs in it (tests/chromium.py WorkerOff: else it does not)."""
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=size == "phone",
        service_workers="allow" if worker else "block",
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
    return context


def signed_in_context(browser, site, client_class, user, *, size, language, worker=False):
    client = client_class()
    client.force_login(user)
    context = visitor_context(browser, site, size=size, language=language, worker=worker)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": site.url}]
    )
    return context


def shots_folder(tmp_path) -> Path:
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    return shots
