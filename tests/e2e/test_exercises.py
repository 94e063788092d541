"""Exercises on the real board in Chromium (docs/features.md, "Exercises"): a player steps into
their own mistakes of a real analysed match from the end-of-match link, answers one wrong (their
own blunder) and then right (judged, first answer kept), sees the best turn moving and the
equity in numbers; another player solves one from the stream, whose origin shows only once
answered; the profile's statistics. Phone (390x844) and desktop (1280x800), English and
Russian, light and dark.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from analysis.services import analysis_request
from games import services
from learning.models import Attempt, Exercise, ExerciseRating, MatchPerformance
from tests.analysis.test_analysis_services import play_bot_against_random
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread
from tests.factories import make_user
from tests.learning.positions import exercise_of_position, steps_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def board_key(side: str, point: int) -> str:
    """The board's data-index of `side`'s own point (static/js/points.js ownPointToIndex)."""
    if point == 0:
        return "off"
    return str(point - 1 if side == "w" else (point + 11) % 24)


def play_on_the_board(page, side: str, steps) -> None:  # noqa: ANN001
    """Click each step's source and destination, as a player does."""
    for source, destination, _ in steps:
        page.locator(f'#board .pt[data-index="{board_key(side, source)}"]').click()
        target = (
            "#board .tray.near"
            if destination == 0
            else (f'#board .pt[data-index="{board_key(side, destination)}"]')
        )
        page.locator(target).click()
    page.wait_for_selector("#exercise-submit:not([disabled])")


def answer(page, side: str, steps) -> str:  # noqa: ANN001
    play_on_the_board(page, side, steps)
    page.locator("#exercise-submit").click()
    page.wait_for_selector("#exercise-app:not([data-state='playing'])")
    page.wait_for_selector("#exercise-app[data-shown='best']")
    return page.locator("#exercise-app").get_attribute("data-state")


def quiet_page(browser, site, client_class, user):  # noqa: ANN001
    """A signed-in page whose context runs no service worker: the pages here are loaded many
    times in a row, and the worker filling its cache at the first held some loads past 30 s on
    a loaded machine (the worker itself is tests/e2e/test_installable.py's)."""
    client = client_class()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": site.url}]
    )
    return context.new_page()


def screenshots(page, url: str, name: str, shots: Path) -> None:  # noqa: ANN001
    for language in ("en", "ru"):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": url}])
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            for size, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                page.goto(url, wait_until="domcontentloaded")
                page.wait_for_load_state("domcontentloaded")
                width_used = page.evaluate("document.documentElement.scrollWidth")
                assert width_used <= width, (name, language, size, width_used)
                page.screenshot(
                    path=str(shots / f"{name}-{language}-{scheme}-{size}.png"), full_page=True
                )
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": url}])
    page.emulate_media(color_scheme="light")


def test_own_mistakes_and_the_stream_on_the_board(browser, site, client, tmp_path):
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    strong, weak = make_user("learn_strong"), make_user("learn_random")
    match = off_the_browser_thread(services.match_create, creator=strong, rated=False)
    off_the_browser_thread(services.match_accept, user=weak, match_id=match.pk)
    off_the_browser_thread(play_bot_against_random, match_id=match.pk, strong=strong, weak=weak)
    # The site's analysis worker analyses it; learning hears of it there, after the commit.
    off_the_browser_thread(analysis_request, user=weak, match_id=match.pk)
    deadline = time.monotonic() + 300
    while not MatchPerformance.objects.filter(match=match).exists():
        assert time.monotonic() < deadline, "the worker did not store the analysis in time"
        time.sleep(0.5)
    mine = list(
        Exercise.objects.filter(player=weak, match=match).order_by("game_number", "turn_number")
    )
    assert mine, "the random mover made no mistake the analysis kept"

    page = logged_in_page(browser, site, client.__class__, weak)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site.url}/matches/{match.pk}/", wait_until="domcontentloaded")
    page.locator("#mistakes-link").click()
    page.wait_for_selector("#exercise-app")
    first = mine[0]
    assert page.locator("#exercise-app").get_attribute("data-exercise-id") == str(first.pk)
    # Wrong: the turn the player made in the match.
    assert answer(page, first.side, steps_to(first, first.played_board)) == "wrong"
    explain = page.locator("#exercise-explain").inner_text()
    assert (
        f"{first.loss:.3f}" in explain
        or f"{first.candidates[0][1] - first.played_equity:.3f}" in explain
    )
    page.screenshot(path=str(shots / "exercise-own-wrong-en-light-desktop.png"), full_page=True)
    # The best turn is drawn (its checkers fly there from the position).
    assert page.evaluate("window.exerciseApp.board.model.board") == first.candidates[0][0]
    attempt = Attempt.objects.get(user=weak, exercise=first)
    assert not attempt.correct and attempt.rating_after is None  # one's own match: not rated
    # Right, on the same exercise again: judged, the first answer kept.
    page.reload()
    assert answer(page, first.side, steps_to(first, first.candidates[0][0])) == "right"
    assert not page.locator("#exercise-rating-change").is_hidden()
    assert Attempt.objects.filter(user=weak).count() == 1
    if len(mine) > 1:  # the next mistake, in the order played
        page.locator("#exercise-next").click()
        page.wait_for_selector(f"#exercise-app[data-exercise-id='{mine[1].pk}']")
    own_url = f"{site.url}/exercises/{first.pk}/?own=1"

    # The stream: a public exercise; its origin appears once answered.
    public = exercise_of_position(make_user("learn_other"), opponent=make_user("learn_rival"))
    solver = make_user("learn_solver")
    page = logged_in_page(browser, site, client.__class__, solver)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site.url}/exercises/", wait_until="domcontentloaded")
    page.wait_for_selector("#exercise-app")
    shown = Exercise.objects.get(
        pk=int(page.locator("#exercise-app").get_attribute("data-exercise-id"))
    )
    assert shown.public
    origin = shown.match
    assert origin.creator.username not in page.content()
    assert answer(page, shown.side, steps_to(shown, shown.candidates[0][0])) == "right"
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "exercise-stream-right-en-light-phone.png"), full_page=True)
    revealed = page.locator("#exercise-revealed").inner_text()
    assert origin.creator.username in revealed and page.locator("#exercise-replay").is_visible()
    rating = ExerciseRating.objects.get(user=solver)
    assert rating.streak == 1 and rating.rating > 1500
    assert str(round(rating.rating)) in page.locator("#exercise-rating-change").inner_text()
    assert errors == []

    page = quiet_page(browser, site, client.__class__, solver)
    screenshots(page, f"{site.url}/exercises/{public.pk}/", "exercise-stream", shots)
    page = quiet_page(browser, site, client.__class__, weak)
    screenshots(page, own_url, "exercise-own", shots)
    screenshots(page, f"{site.url}/@/{weak.username}", "profile-statistics", shots)
    page.goto(f"{site.url}/@/{weak.username}", wait_until="domcontentloaded")
    assert page.locator("#statistics-results").is_visible()
    assert page.locator("#statistics-phases dd").count() >= 1
