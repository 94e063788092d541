"""What a player meets around the board, in a real browser against the real site, on a phone and
a desktop, in English and Russian: one Resign whose confirmation says leaving is resigning; the
rules as one compact line with the details behind it; rolls announced in a polite live region;
a skip link; "●" in the tab's title only on one's turn; the keyboard's help only for a player on
a desktop; no chat or Report against the computer; and the end of a paired match: the final score
with the winner's points (a resignation gives the match), the result said once, the rating
changes, Rematch, New opponent (back into the same pool) and Replay. Screenshots go to
/tmp/frictions-shots/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import services
from games.dice import push_test_dice
from games.models import Match
from pairing import services as pairing_services
from pairing.pools import Pool
from tests.e2e.contrast import low_contrast
from tests.e2e.test_board_motion import _page
from tests.e2e.test_live_match import off_the_browser_thread, seam_site
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["seam_site"]  # the fixture, used by name below

SHOTS = Path("/tmp/frictions-shots")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
CASES = [
    pytest.param(PHONE, "en", id="phone-en"),
    pytest.param(DESKTOP, "ru", id="desktop-ru"),
]
WORDS = {
    "en": {
        "rules": "Traditional · to 1 · 60 s",
        "rolled": "rolled 6-5",
        "confirm": "Leaving the table is resigning too",
        "won": "won the match",
    },
    "ru": {
        "rules": "Традиционные · до 1 · 60 с",
        "rolled": "бросок 6-5",
        "confirm": "Уход из-за стола — тоже сдача",
        "won": "выиграл",
    },
}
POOL = Pool("traditional", 1, 60, True)


def _paired_match(tag: str):
    """Two players paired from the quick-pairing pool (traditional, to 1, 60 s, rated)."""
    white, black = make_user(f"pair_a_{tag}"), make_user(f"pair_b_{tag}")
    push_test_dice(6, 1, 6, 5)  # the first to join starts; White rolls 6-5
    for user in (white, black):
        off_the_browser_thread(pairing_services.pool_join, user=user, pool=POOL)
    match = Match.objects.get(creator__in=(white, black))
    return match.creator, match.opponent, match


@pytest.mark.parametrize(("viewport", "language"), CASES)
def test_around_the_board_and_the_end_of_a_paired_match(
    browser, seam_site, client, viewport, language
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tag = f"{viewport['width']}{language}"
    words = WORDS[language]
    first, second, match = _paired_match(tag)
    url = f"{seam_site.url}/matches/{match.pk}/"
    me = _page(browser, seam_site, client, first, viewport, language)
    other = _page(browser, seam_site, client, second, viewport, language)
    watcher = _page(browser, seam_site, client, None, viewport, language)
    for page in (me, other, watcher):
        page.goto(url)
        page.wait_for_selector("#match-app[data-status='active'][data-phase='roll']")
    mover, waiter = (
        (me, other) if me.get_attribute("#match-app", "data-side") == "w" else (other, me)
    )

    # "●" in the title on my turn only.
    assert mover.title().startswith("● ") and not waiter.title().startswith("●")
    # The skip link is the first stop of the keyboard and goes to the page's content.
    mover.keyboard.press("Tab")
    assert mover.evaluate("document.activeElement.className") == "skip-link"
    mover.keyboard.press("Enter")
    assert mover.evaluate("document.activeElement.id") == "main"
    # The rules: one compact line; the details open behind it.
    assert mover.text_content("#match-info") == words["rules"]
    assert not mover.locator("#rule-options").is_visible()
    mover.click("#match-info")
    assert mover.locator("#rule-options").is_visible()
    assert mover.locator("#match-terms").is_visible()
    # Keyboard help: for a player at a desktop only; never for a spectator.
    assert mover.locator(".keyboard-help").is_visible() == (viewport == DESKTOP)
    assert watcher.locator(".keyboard-help").count() == 0
    # Against a person the chat and the report are there.
    assert mover.locator("#chat-panel").count() == 1
    # One way out: Resign (no "Leave table").
    assert mover.locator("#leave-button").count() == 0
    assert mover.locator("#resign-button").is_visible()

    mover.click("#roll-button")
    for page in (mover, waiter, watcher):
        page.wait_for_function(
            "t => document.querySelector('#dice-live').textContent.includes(t)",
            arg=words["rolled"],
        )
        assert page.get_attribute("#dice-live", "aria-live") == "polite"
    mover.screenshot(path=str(SHOTS / f"rolled-{tag}.png"), full_page=True)

    # Resign: the confirmation says leaving the table is resigning.
    dialogs = []

    def accept(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    waiter.on("dialog", accept)
    waiter.click("#resign-button")
    for page in (mover, waiter, watcher):
        page.wait_for_selector("#match-app[data-status='finished']")
    assert words["confirm"] in dialogs[0]
    winner = match.creator if mover is me else match.opponent
    loser = match.opponent if mover is me else match.creator
    for page in (mover, waiter):
        end = page.locator("#match-end")
        end.wait_for(state="visible")
        # A 1-point match won by resignation: the winner got the point.
        assert page.text_content("#final-score") == f"{winner.username} 1 – {loser.username} 0" or (
            page.text_content("#final-score") == f"{loser.username} 0 – {winner.username} 1"
        )
        page.locator("#rating-changes li").first.wait_for(state="visible")
        assert page.locator("#rematch-button").is_visible()
        assert page.locator("#replay-link").is_visible()
        assert page.locator("#analyse-button").is_visible()
        # The end's actions appear only here, so the page-wide contrast test never sees them.
        assert low_contrast(page) == []
        assert POOL.key in page.get_attribute("#new-opponent", "href")
        # The result is said once: the status line; no toast repeats it.
        visible_text = page.locator("body").inner_text()
        assert len(re.findall(re.escape(words["won"]), visible_text)) == 1, visible_text
    assert watcher.locator("#new-opponent").count() == 0  # a spectator has no pool to go back to
    mover.screenshot(path=str(SHOTS / f"end-{tag}.png"), full_page=True)
    # New opponent: back on the Play page, waiting in the same pool.
    mover.click("#new-opponent")
    mover.wait_for_selector("#pool-wait:not([hidden])")
    assert "pool=" not in mover.url  # a reload does not join again
    mover.screenshot(path=str(SHOTS / f"new-opponent-{tag}.png"), full_page=True)
    for page in (me, other, watcher):
        assert page.errors == []


@pytest.mark.parametrize(("viewport", "language"), CASES)
def test_no_chat_or_report_against_the_computer(browser, seam_site, client, viewport, language):
    SHOTS.mkdir(parents=True, exist_ok=True)
    user = make_user(f"solo{viewport['width']}{language}")
    match = off_the_browser_thread(
        services.match_create_vs_bot, user=user, level="beginner", turn_seconds=60
    )
    page = _page(browser, seam_site, client, user, viewport, language)
    page.goto(f"{seam_site.url}/matches/{match.pk}/")
    page.wait_for_selector("#match-app[data-status='active']")
    page.locator(".bot-mark").first.wait_for()
    assert page.locator("#chat-panel").count() == 0
    assert page.locator("#report-opponent").count() == 0
    page.screenshot(path=str(SHOTS / f"computer-{viewport['width']}-{language}.png"))
    assert page.errors == []
