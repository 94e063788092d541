"""A cube match's analysis on the replay, in a real browser: the stored report's cube decisions
(a double taken, a redouble dropped: a blunder) are listed under the turn they belong to, the
worst one marked beside that turn's notation with the cube sign, and each seat's counted cube
decisions stand in the totals; the note about checker play only is gone. On a phone (390x844)
and a desktop (1280x800), in English and Russian.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.analysis.test_cube_decisions import analysed, play_cube_match
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
WORDS = {"en": ("Cube at 2: drop, best take", "Cube decisions"),
         "ru": ("Куб на 2: отказаться, лучше принять", "Решения с кубом")}  # fmt: skip


def test_the_replay_shows_a_cube_match_s_decisions_marked(
    browser, site, client, fixed_dice, tmp_path
):
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    match = off_the_browser_thread(play_cube_match, fixed_dice=fixed_dice)
    report = off_the_browser_thread(analysed, match=match).result
    decisions = report["cube_decisions"]
    assert len(decisions) == 4 and decisions[3]["mark"] == "blunder"

    page = logged_in_page(browser, site, client.__class__, match.creator)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    for language in ("en", "ru"):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
        line, row = WORDS[language]
        for name, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{site.url}/matches/{match.pk}/replay/")
            page.wait_for_selector("#analysis[data-ready='1']")
            # Game 1's one turn: the decisions before its roll and the dropped redouble after it.
            page.locator("#analysis-graph .chart-turn").nth(0).click()
            items = page.locator("#analysis-cube-decisions li")
            assert items.count() == 4
            assert line in items.nth(3).inner_text()
            assert items.nth(3).get_attribute("class") == "mark-blunder"
            mark = page.locator("#moves li[data-cube-mark] .analysis-cube-mark")
            assert mark.count() == 1 and mark.inner_text().strip() == "▣??"
            assert page.locator("#analysis-cube-row").is_visible()
            assert row in page.locator("#analysis-cube-row").inner_text()
            assert not page.locator("#analysis-cube").is_visible()
            assert page.locator("#analysis-cube-note").is_visible()
            # Nothing of the panel runs off a phone's screen.
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            page.locator("#analysis").screenshot(
                path=str(shots / f"cube-analysis-{language}-{name}.png")
            )
            page.screenshot(path=str(shots / f"cube-replay-{language}-{name}.png"), full_page=True)
    assert errors == []
