"""The profile's performance-rating line in a real browser (English and Russian, phone 390x844 and
desktop 1280x800): the average over recent analysed matches with its trend, readable, inside the
page, the trend's colour saying better or worse (analysis/selectors.py, player_performance).

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from analysis.models import AnalysisStatus, MatchAnalysis
from tests.factories import make_user
from tests.ratings.conftest import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
# Older matches first: 20.0, 18.0, 16.0, then 8.0, 6.0, 4.0 (newer half better by 12).
RATINGS = (20.0, 18.0, 16.0, 8.0, 6.0, 4.0)
TITLES = {
    "en": "Average over the last 6 analysed matches; lower is better",
    "ru": "В среднем за последние 6 проанализированных матчей; чем меньше, тем лучше",
}


def analysed_history(player, rival) -> None:
    start = timezone.now() - timedelta(days=len(RATINGS))
    for day, rating in enumerate(RATINGS):
        match = finished_match(player, rival, finished_at=start + timedelta(days=day))
        MatchAnalysis.objects.create(
            match=match, status=AnalysisStatus.DONE, pr_creator=rating, pr_opponent=rating + 30
        )


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_performance_line_reads_well(browser, site, language, tmp_path):
    shots = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    player, rival = make_user("pr_player"), make_user("pr_rival")
    analysed_history(player, rival)
    for name, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
        page = context.new_page()
        page.goto(f"{site.url}/@/{player.username}")
        line = page.locator("#performance-rating")
        line.scroll_into_view_if_needed()
        assert line.inner_text().split() == ["12.0", "↓", "12.0"]
        assert line.get_attribute("title") == TITLES[language]
        assert "better" in page.locator("#performance-trend").get_attribute("class")
        box = line.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator("#record").screenshot(path=shots / f"profile-pr-{language}-{name}.png")
        context.close()
