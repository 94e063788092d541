"""The README's two pictures, taken from a real Chromium on the real site (Daphne, the workers,
PostgreSQL, Redis), as a player sees them. Not collected by the suite (no test_ prefix); run by

    make screenshots

which writes docs/images/match.png (a live match from a player's seat, a few turns in) and
docs/images/analysis.png (a finished match's replay with its analysis, the worst turn's best move
drawn)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games import services
from tests.analysis.test_analysis_services import play_bot_against_random
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread
from tests.factories import make_user
from tests.games.test_services import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IMAGES = Path(os.environ.get("IMAGES", Path(__file__).resolve().parents[3] / "docs" / "images"))
DESKTOP = {"width": 1280, "height": 800}


class EnoughTurns(Exception):
    """Stops the scripted play with the match still on, a few turns in."""


def play_some_turns(match_id: int, players, turns: int) -> None:
    from nardy import choose_turn

    played = []

    def choose(mover, turn):
        if len(played) == turns:
            raise EnoughTurns
        played.append(mover)
        return choose_turn(turn.start_board, turn.side, turn.dice, turn.first_turn, turn.rules)

    try:
        play_to_the_end(match_id, players, None, choose)
    except EnoughTurns:
        return


def test_take_the_readme_screenshots(browser, site, client) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)

    ana, bogdan = make_user("Ana"), make_user("Bogdan")
    live = off_the_browser_thread(services.match_create, creator=ana, length=3, turn_seconds=60)
    off_the_browser_thread(services.match_accept, user=bogdan, match_id=live.pk)
    off_the_browser_thread(play_some_turns, match_id=live.pk, players=(ana, bogdan), turns=9)
    # The opponent's page is open too, so the seat shows them connected, as in a real match.
    opponent = logged_in_page(browser, site, client.__class__, bogdan)
    opponent.goto(f"{site.url}/matches/{live.pk}/")
    page = logged_in_page(browser, site, client.__class__, ana)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site.url}/matches/{live.pk}/")
    page.wait_for_selector("#match-app[data-version]")
    page.wait_for_timeout(1_500)  # the last step's flight lands
    page.screenshot(path=str(IMAGES / "match.png"))

    strong, weak = make_user("Elena"), make_user("Dmitri")
    done = off_the_browser_thread(services.match_create, creator=strong, rated=False)
    off_the_browser_thread(services.match_accept, user=weak, match_id=done.pk)
    off_the_browser_thread(play_bot_against_random, match_id=done.pk, strong=strong, weak=weak)
    page = logged_in_page(browser, site, client.__class__, weak)
    page.set_viewport_size({"width": 1280, "height": 1000})  # the board and the panel's graph
    page.goto(f"{site.url}/matches/{done.pk}/replay/")
    page.wait_for_selector("#replay-app[data-ready='1']")
    page.locator("#analysis-request").click()
    page.wait_for_selector("#analysis[data-ready='1']", timeout=180_000)
    marks = page.locator("#moves li[data-mark='blunder']")
    (marks.first if marks.count() else page.locator("#moves li[data-mark]").first).click()
    page.locator("#analysis-best").click()
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(500)
    page.screenshot(path=str(IMAGES / "analysis.png"))
