"""A hand-run check of the match page against the real site (not collected by default):

    make test PYTEST_ARGS="tests/e2e/harness/live_check.py -p no:cacheprovider"

Screenshots go to $SHOTS (default /tmp/shots).
"""

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import Client

from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("SHOTS", "/tmp/shots")


def logged_in_page(browser, site, user, width=1280, height=800):
    def login():
        from django.db import connection

        client = Client()
        client.force_login(user)
        connection.close()
        return client

    with ThreadPoolExecutor(1) as pool:
        client = pool.submit(login).result()
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": site.url}]
    )
    page = ctx.new_page()
    page.errors = []
    page.on(
        "console",
        lambda m: (
            page.errors.append(m.text)
            if m.type == "error" and "Failed to load resource" not in m.text
            else None
        ),
    )
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def test_live_match(browser, site):
    from games import services

    def setup():
        from django.db import connection

        ana, bogdan = make_user("ana"), make_user("bogdan")
        match = services.match_create(creator=ana, length=1, turn_seconds=60)
        services.match_accept(user=bogdan, match_id=match.pk)
        connection.close()
        return ana, bogdan, match

    # The services publish through async_to_sync: not in Playwright's event-loop thread.
    with ThreadPoolExecutor(1) as pool:
        ana, bogdan, match = pool.submit(setup).result()
    pages = {}
    for user, w, h in ((ana, 1280, 800), (bogdan, 390, 844)):
        page = logged_in_page(browser, site, user, w, h)
        page.goto(f"{site.url}/matches/{match.pk}/")
        page.wait_for_selector("#match-app[data-version]:not([data-version=''])")
        pages[user.username] = page
    ana_page = pages["ana"]
    clocks = [ana_page.text_content(".player-bar .clock:not(:empty)")]
    ana_page.wait_for_timeout(2100)
    clocks.append(ana_page.text_content(".player-bar .clock:not(:empty)"))
    print("the mover's clock counts down:", clocks)
    ana_page.screenshot(path=f"{SHOTS}/live-ana-start.png")
    pages["bogdan"].screenshot(path=f"{SHOTS}/live-bogdan-start.png", full_page=True)
    for turn in range(6):
        mover = next(
            (
                p
                for p in pages.values()
                if p.locator("#roll-button:visible").count()
                or p.locator("[data-point].legal-source").count()
            ),
            None,
        )
        assert mover is not None, [p.text_content("#status") for p in pages.values()]
        if mover.locator("#roll-button:visible").count():
            v = mover.get_attribute("#match-app", "data-version")
            mover.click("#roll-button")
            mover.wait_for_function(
                f"() => document.querySelector('#match-app').dataset.version !== '{v}'"
            )
        if turn == 2 and mover.locator("[data-point].legal-source").count():
            # A picked checker and its destinations, as the mover sees them on each screen.
            mover.click("[data-point].legal-source >> nth=0")
            own = mover.viewport_size
            for w, h in ((390, 844), (1280, 800)):
                mover.set_viewport_size({"width": w, "height": h})
                mover.screenshot(path=f"{SHOTS}/live-picked-{w}x{h}.png")
            mover.set_viewport_size(own)
            mover.click("[data-point].legal-source >> nth=0")  # picked again: put back
        for _ in range(4):
            mover.wait_for_timeout(300)
            if not mover.locator("[data-point].legal-source").count():
                break
            v = mover.get_attribute("#match-app", "data-version")
            mover.click("[data-point].legal-source >> nth=0")
            mover.click(".legal-destination >> nth=0")
            mover.wait_for_function(
                f"() => +document.querySelector('#match-app').dataset.version > {v}"
            )
        print(
            turn,
            [p.text_content("#status") for p in pages.values()],
            [p.text_content("#moves") for p in pages.values()][0][-60:],
        )
    for name, page in pages.items():
        page.screenshot(path=f"{SHOTS}/live-{name}-later.png", full_page=True)
    # Both players' pages at both sizes (a phone and a desktop), with a source picked when one is.
    for name, page in pages.items():
        own = page.viewport_size
        for w, h in ((390, 844), (1280, 800)):
            page.set_viewport_size({"width": w, "height": h})
            page.screenshot(path=f"{SHOTS}/live-{name}-{w}x{h}.png")
            print(name, w, "scrollWidth", page.evaluate("document.documentElement.scrollWidth"))
        page.set_viewport_size(own)
    # Undo: roll, play one step, take it back.
    mover = next(p for p in pages.values() if p.locator("#roll-button:visible").count())
    v = mover.get_attribute("#match-app", "data-version")
    mover.keyboard.press("Space")
    mover.wait_for_function(f"() => +document.querySelector('#match-app').dataset.version > {v}")
    mover.wait_for_timeout(300)
    if mover.locator("[data-point].legal-source").count():
        v = mover.get_attribute("#match-app", "data-version")
        mover.click("[data-point].legal-source >> nth=0")
        mover.click(".legal-destination >> nth=0")
        mover.wait_for_function(
            f"() => +document.querySelector('#match-app').dataset.version > {v}"
        )
        mover.wait_for_timeout(300)
        if mover.locator("#undo-button:visible").count():
            steps = mover.evaluate("window.matchApp.view.game.steps.length")
            mover.click("#undo-button")
            mover.wait_for_function(f"() => window.matchApp.view.game.steps.length < {steps}")
            print("undo ok", mover.evaluate("window.matchApp.view.game.steps"))
    ana_page.on("dialog", lambda d: d.accept())
    ana_page.click("#resign-button")
    ana_page.wait_for_selector("#match-app[data-result]")
    pages["bogdan"].wait_for_selector("#match-app[data-result]")
    print(
        "result",
        ana_page.get_attribute("#match-app", "data-result"),
        ana_page.text_content("#status"),
    )
    pages["bogdan"].click("#rematch-button")
    ana_page.wait_for_selector("#rematch-button:has-text('Accept')")
    ana_page.screenshot(path=f"{SHOTS}/live-ana-finished.png", full_page=True)
    ana_page.click("#rematch-button")
    ana_page.wait_for_url(lambda u: f"/matches/{match.pk}/" not in u)
    print("rematch url", ana_page.url)
    ana_page.goto(f"{site.url}/matches/{match.pk}/replay/")
    ana_page.wait_for_selector("#replay-app[data-ready='1']")
    ana_page.keyboard.press("End")
    print(
        "replay",
        ana_page.get_attribute("#replay-app", "data-game"),
        ana_page.get_attribute("#replay-app", "data-turn"),
        ana_page.text_content("#replay-position"),
    )
    ana_page.screenshot(path=f"{SHOTS}/live-replay.png", full_page=True)
    for name, page in pages.items():
        assert not page.errors, (name, page.errors)
