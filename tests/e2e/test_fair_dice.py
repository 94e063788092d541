"""Provably fair dice in Chromium: a match played over real sockets is verified roll by
roll by "Verify dice" on the match page and the replay (WebCrypto, no verification request), a
record with one bit changed is not; the creator replaces their client seed before the start; the
create form comes with a seed from the browser."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from games.models import Match
from tests.e2e.test_live_match import logged_in_page
from tests.factories import make_user
from tests.integration.test_fair_dice import play_a_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/fairdice-shots")
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


@pytest.fixture
def fast_site(site):
    """The session's site: its socket message limit is one a program playing a whole match stays
    under (tests/conftest.py, SITE_SETTINGS)."""
    return site


def off_the_browser_thread(function, *args, **kwargs):
    """Playwright's sync API keeps an event loop running in this thread; the socket play and the
    services run in another."""
    with ThreadPoolExecutor(1) as executor:
        return executor.submit(function, *args, **kwargs).result()


def rolls_in(match: Match) -> int:
    return sum(game.rolls for game in match.games.all())


def verify_on(page) -> None:
    page.locator("#verify-dice").click()
    page.wait_for_function(
        "() => document.querySelector('#fairness').dataset.verified !== undefined", timeout=30_000
    )


def test_verify_dice_on_the_match_page_and_the_replay(browser, fast_site, client):
    match = off_the_browser_thread(play_a_match, fast_site, client)
    player = match.creator
    page = logged_in_page(browser, fast_site, client.__class__, player)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{fast_site.url}/matches/{match.pk}/")
    panel = page.locator("#fairness")
    panel.locator("[data-fair=server-seed]").filter(has_text=match.server_seed).wait_for()
    assert panel.locator("[data-fair=hash]").inner_text() == match.server_seed_hash
    verify_on(page)
    assert panel.get_attribute("data-verified") == "ok"
    assert panel.locator("li[data-ok=true]").count() == rolls_in(match)
    assert panel.locator("li[data-ok=false]").count() == 0
    assert "fair-ok" in panel.locator("[data-fair=summary]").get_attribute("class")
    # The one request the button made is the public record; nothing asked the server to verify.
    after_click = requests[requests.index(next(u for u in requests if "export.json" in u)) :]
    assert [url for url in after_click if "/static/" not in url] == [
        f"{fast_site.url}/matches/{match.pk}/export.json"
    ]
    SHOTS.mkdir(exist_ok=True)
    for name, size in VIEWPORTS.items():
        page.set_viewport_size(size)
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"match-verified-{name}.png"), full_page=True)

    replay = page.context.new_page()
    replay.goto(f"{fast_site.url}/matches/{match.pk}/replay/")
    replay.wait_for_function("() => document.querySelector('#replay-app').dataset.ready === '1'")
    requests.clear()
    replay.on("request", lambda request: requests.append(request.url))
    verify_on(replay)
    assert replay.locator("#fairness").get_attribute("data-verified") == "ok"
    assert replay.locator("#fairness li[data-ok=true]").count() == rolls_in(match)
    assert requests == []  # the replay verifies the record it already loaded
    replay.set_viewport_size(VIEWPORTS["phone"])
    replay.screenshot(path=str(SHOTS / "replay-verified-phone.png"), full_page=True)


def test_a_record_with_one_bit_changed_fails_in_the_browser(browser, fast_site, client):
    match = off_the_browser_thread(play_a_match, fast_site, client)
    page = logged_in_page(browser, fast_site, client.__class__, match.opponent)
    export_url = f"{fast_site.url}/matches/{match.pk}/export.json"
    original = page.context.request.get(export_url).text()
    # One bit of one die of the move log: the first turn's first die.
    at = original.index('"dice": [', original.index('"turns"')) + len('"dice": [')
    while not original[at].isdigit():
        at += 1
    tampered = original[:at] + chr(ord(original[at]) ^ 1) + original[at + 1 :]
    page.route(
        re.compile(r".*/export\.json$"),
        lambda route: route.fulfill(status=200, content_type="application/json", body=tampered),
    )
    page.goto(f"{fast_site.url}/matches/{match.pk}/")
    verify_on(page)
    panel = page.locator("#fairness")
    assert panel.get_attribute("data-verified") == "failed"
    assert panel.locator("li[data-ok=false]").count() == 1
    assert "fair-bad" in panel.locator("[data-fair=summary]").get_attribute("class")
    page.set_viewport_size(VIEWPORTS["desktop"])
    page.screenshot(path=str(SHOTS / "match-tampered-desktop.png"), full_page=True)
    assert json.loads(tampered) != json.loads(original)


def test_the_creator_replaces_the_client_seed_before_the_start(browser, fast_site, client):
    creator = make_user("seed_chooser")
    page = logged_in_page(browser, fast_site, client.__class__, creator)
    page.goto(f"{fast_site.url}/play/")
    seed_field = page.locator("#create-form input[name=client_seed]")
    page.wait_for_function(
        "() => document.querySelector('#create-form input[name=client_seed]').value !== ''"
    )
    browser_seed = seed_field.input_value()
    assert re.fullmatch(r"[0-9a-f]{32}", browser_seed)
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.get(creator=creator)
    assert match.client_seed_creator == browser_seed  # the browser's own seed was used
    form = page.locator("[data-fair=seed-form]")
    form.wait_for()
    page.locator("[data-fair=seed-input]").fill("my-lucky_seed")
    form.locator("button[type=submit]").click()
    page.locator("[data-fair=seed-0]").filter(has_text="my-lucky_seed").wait_for()
    assert Match.objects.get(pk=match.pk).client_seed_creator == "my-lucky_seed"
    assert page.locator("[data-fair=hash]").inner_text() == match.server_seed_hash
    assert page.locator("[data-fair=server-seed]").inner_text() != match.server_seed
    for name, size in VIEWPORTS.items():
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"open-challenge-seed-{name}.png"), full_page=True)
    fairness = page.context.new_page()
    for name, size in VIEWPORTS.items():
        fairness.set_viewport_size(size)
        fairness.goto(f"{fast_site.url}/fairness/")
        fairness.screenshot(path=str(SHOTS / f"fairness-page-{name}.png"), full_page=True)
