"""The chat on the match page in a real browser: markup in a message shows as text on every page
that shows it (the live panel of a player and of a spectator, the replay), quick phrases arrive
in the reader's language, and the profile, settings and report pages of moderation render."""

from __future__ import annotations

import os

import pytest

from games import services
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOSTILE = '<img src=x onerror="window.pwned=1"><b>bold</b>'
SHOTS = os.environ.get("SCREENSHOT_DIR")  # set to keep screenshots (e.g. /tmp/chat-shots)


def shoot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_html_in_a_chat_message_shows_as_text(site, browser, client):
    white, black, watcher = make_user("page_w"), make_user("page_b"), make_user("page_s")
    match = off_the_browser_thread(
        services.match_create, creator=white, turn_seconds=120, rated=False
    )
    off_the_browser_thread(services.match_accept, user=black, match_id=match.pk)
    white_page = logged_in_page(browser, site, client.__class__, white)
    watcher_page = logged_in_page(browser, site, client.__class__, watcher)
    for page in (white_page, watcher_page):
        page.goto(f"{site.url}/matches/{match.pk}/")
        page.wait_for_function(
            "() => window.matchApp && window.matchApp.session.connection === 'open'"
        )

    white_page.fill("#chat-input", HOSTILE)
    white_page.click("#chat-send")
    white_page.locator("[data-phrase='good_game']").click()
    for page in (white_page, watcher_page):
        line = page.locator("#chat-list .chat-text").first
        line.wait_for()
        assert line.inner_text() == HOSTILE  # the markup, as typed
        assert page.locator("#chat-list img").count() == 0
        assert page.locator("#chat-list b").count() == 0
        assert page.evaluate("window.pwned") is None
        page.locator("#chat-list .chat-text", has_text="Good game!").wait_for()
    # The spectators' chat is not shown to the players during play.
    watcher_page.fill("#chat-input", "spectator here")
    watcher_page.click("#chat-send")
    watcher_page.locator("#chat-list .chat-text", has_text="spectator here").wait_for()
    assert white_page.locator("#chat-note").is_visible()
    white_page.set_viewport_size({"width": 1280, "height": 800})
    shoot(white_page, "match-chat-1280")
    white_page.set_viewport_size({"width": 390, "height": 844})
    shoot(white_page, "match-chat-390")

    # After the match: the players' page gets the spectators' chat, the replay shows it all.
    off_the_browser_thread(services.match_resign, user=black, match_id=match.pk)
    white_page.locator("#chat-list .chat-text", has_text="spectator here").wait_for()
    replay = watcher_page
    replay.goto(f"{site.url}/matches/{match.pk}/replay/")
    texts = replay.locator("#replay-chat .chat-text").all_inner_texts()
    assert texts == [HOSTILE, "Good game!", "spectator here"]
    assert replay.locator("#replay-chat img").count() == 0
    replay.set_viewport_size({"width": 1280, "height": 800})
    replay.wait_for_function(
        "() => !document.querySelector('#replay-position').textContent.includes('…')"
    )
    shoot(replay, "replay-chat-1280")

    # Moderation's player pages.
    white_page.goto(f"{site.url}/@/{black.username}")
    assert white_page.locator("#block-button").is_visible()
    shoot(white_page, "profile-390")
    white_page.set_viewport_size({"width": 1280, "height": 800})
    shoot(white_page, "profile-1280")
    white_page.set_viewport_size({"width": 390, "height": 844})
    white_page.click("#report-link")
    white_page.wait_for_url("**/report")
    shoot(white_page, "report-390")
    white_page.goto(f"{site.url}/@/{black.username}")
    white_page.click("#block-button")
    white_page.locator("#unblock-button").wait_for()
    white_page.goto(f"{site.url}/settings/")
    assert black.username in white_page.locator("#block-list").inner_text()
    shoot(white_page, "settings-390")
