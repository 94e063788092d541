"""The replay's post-match analysis in a real browser with the real analysis worker (the site's
launcher starts it on its own queue): a player presses "Analyse" on a finished casual match, the
progress shows, then the marks beside the notation, the graph (a click jumps to the turn) and the
best move's arrows, on a phone (390x844) and a desktop (1280x800), in English and Russian.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from analysis.models import AnalysisStatus, MatchAnalysis
from games import services
from tests.analysis.test_analysis_services import play_bot_against_random
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def test_analyse_a_finished_match_and_read_it_on_the_replay(browser, site, client, tmp_path):
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    strong, weak = make_user("ana_strong"), make_user("ana_random")
    match = off_the_browser_thread(services.match_create, creator=strong, rated=False)
    off_the_browser_thread(services.match_accept, user=weak, match_id=match.pk)
    off_the_browser_thread(play_bot_against_random, match_id=match.pk, strong=strong, weak=weak)
    assert not MatchAnalysis.objects.filter(match=match).exists()  # casual: only on request
    match.refresh_from_db()

    page = logged_in_page(browser, site, client.__class__, weak)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.goto(f"{site.url}/matches/{match.pk}/replay/")
    page.wait_for_selector("#replay-app[data-ready='1']")
    page.wait_for_selector("#analysis[data-status='none']")
    with page.expect_response(lambda response: response.request.method == "POST") as posted:
        page.locator("#analysis-request").click()
    assert posted.value.status == 200, posted.value.text()
    # Progress is polled until the worker has stored the result.
    page.wait_for_selector("#analysis[data-ready='1']", timeout=180_000)
    stored = MatchAnalysis.objects.get(match=match)
    assert stored.status == AnalysisStatus.DONE and stored.requested_by_id == weak.pk
    turns = stored.result["turns"]
    assert page.locator("#analysis-graph .chart-turn").count() == len(turns)
    marked_in_game_one = [t for t in turns if t["game"] == 1 and t["mark"]]
    assert page.locator("#moves li[data-mark]").count() == len(marked_in_game_one) > 0
    weak_seat = match.seat_of(weak.pk)
    weak_pr = float(page.locator(f"#analysis-pr-{weak_seat}").inner_text())
    strong_pr = float(page.locator(f"#analysis-pr-{1 - weak_seat}").inner_text())
    assert weak_pr > strong_pr

    # A click on the graph jumps to that turn; "Show best move" draws its arrows.
    worst = max((t for t in turns if t["game"] == 1 and t["best_steps"]), key=lambda t: t["loss"])
    index = turns.index(worst)
    page.locator("#analysis-graph .chart-turn").nth(index).click()
    app = page.locator("#replay-app")
    assert app.get_attribute("data-game") == "1"
    shown = int(app.get_attribute("data-turn"))
    assert page.locator("#moves li.active").get_attribute("data-mark") == worst["mark"]
    assert shown >= 1
    page.locator("#analysis-best").click()
    arrows = page.locator("#board .best-arrows .best-arrow")
    assert arrows.count() == len(worst["best_steps"])
    assert page.locator("#analysis-best").get_attribute("aria-pressed") == "true"

    for language in ("en", "ru"):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
        for name, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{site.url}/matches/{match.pk}/replay/")
            page.wait_for_selector("#analysis[data-ready='1']")
            page.locator("#analysis-graph .chart-turn").nth(index).click()
            page.locator("#analysis-best").click()
            assert page.locator("#board .best-arrows .best-arrow").count() > 0
            page.screenshot(path=str(shots / f"analysis-{language}-{name}.png"), full_page=True)
    assert errors == []
