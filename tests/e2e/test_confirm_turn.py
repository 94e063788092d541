""" "Confirm my turn" in a real browser against the real site, on a phone and a desktop, in English
and Russian: after the last step the turn waits with its clock running; Undo takes the step back,
Enter confirms; Confirm's button does the same; the opponent sees the turn pass only then; with
the preference off (the Preferences page) the last step passes the turn at once. Screenshots go
to /tmp/confirm-shots/."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounts.models import User
from games import services
from games.dice import push_test_dice
from games.models import Turn
from tests.e2e.test_board_motion import _page
from tests.e2e.test_live_match import off_the_browser_thread, seam_site
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["seam_site"]  # the fixture, used by name below

SHOTS = Path("/tmp/confirm-shots")
CASES = [
    pytest.param({"width": 390, "height": 844}, "en", id="phone-en"),
    pytest.param({"width": 1280, "height": 800}, "ru", id="desktop-ru"),
]
WAITING = {"en": "confirm (Enter) or undo", "ru": "подтвердите (Enter) или отмените"}


def _version_moves(page, action) -> None:
    version = page.get_attribute("#match-app", "data-version")
    action()
    page.wait_for_function(
        "v => document.querySelector('#match-app').dataset.version !== v", arg=version
    )


def _play_24_18_13(page) -> None:
    """White's 6-5: the head checker to 18, then to 13 (two clicks each)."""
    for source, target in (("23", "17"), ("17", "12")):
        page.click(f'.pt[data-index="{source}"].legal-source')
        _version_moves(page, lambda t=target: page.click(f'.pt[data-index="{t}"]'))


@pytest.mark.parametrize(("viewport", "language"), CASES)
def test_the_last_step_waits_for_confirm_or_undo(browser, seam_site, client, viewport, language):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tag = f"{viewport['width']}-{language}"
    white = make_user(f"cw_{tag}", confirm_turn=True)
    black = make_user(f"cb_{tag}")
    match = off_the_browser_thread(services.match_create, creator=white, turn_seconds=120)
    push_test_dice(6, 1, 6, 5)
    off_the_browser_thread(services.match_accept, user=black, match_id=match.pk)
    page = _page(browser, seam_site, client, white, viewport, language)
    other = _page(browser, seam_site, client, black, viewport, language)
    for p in (page, other):
        p.goto(f"{seam_site.url}/matches/{match.pk}/")
        p.wait_for_selector('#match-app[data-phase="roll"][data-turn="w"]')
    _version_moves(page, lambda: page.click("#roll-button"))
    _play_24_18_13(page)
    # The whole turn is played: it waits, White's clock running, Black still waiting.
    page.wait_for_selector("#confirm-button:visible")
    assert WAITING[language] in page.text_content("#status")
    assert page.locator("#undo-button").is_visible()
    clock = page.text_content("#player-bottom .clock")
    page.wait_for_timeout(1500)
    assert page.text_content("#player-bottom .clock") != clock  # still counting down
    assert other.get_attribute("#match-app", "data-turn") == "w"
    assert not Turn.objects.exists()
    page.screenshot(path=str(SHOTS / f"waiting-{tag}.png"))
    # Undo: the last step comes back and the turn goes on.
    _version_moves(page, lambda: page.click("#undo-button"))
    assert page.evaluate("window.matchApp.view.game.steps") == [[24, 18, 6]]
    assert not page.locator("#confirm-button").is_visible()
    page.click('.pt[data-index="17"].legal-source')
    _version_moves(page, lambda: page.click('.pt[data-index="12"]'))
    # Enter confirms (focus anywhere but another button), once the last step's answer is in.
    page.wait_for_selector("#confirm-button:visible:not([disabled])")
    page.locator("#status").click()
    _version_moves(page, lambda: page.keyboard.press("Enter"))
    other.wait_for_selector('#match-app[data-turn="b"]')
    turn = Turn.objects.get()
    assert turn.steps == [[24, 18, 6], [18, 13, 5]] and not turn.by_server
    assert not page.locator("#confirm-button").is_visible()
    for p in (page, other):
        assert p.errors == []


def test_turned_off_on_the_preferences_page_the_last_step_passes_the_turn(
    browser, seam_site, client
):
    white = make_user("pref_w", confirm_turn=True)
    black = make_user("pref_b")
    page = _page(browser, seam_site, client, white, {"width": 1280, "height": 800}, "en")
    page.goto(f"{seam_site.url}/settings/")
    box = page.locator("#id_confirm_turn")
    assert box.is_checked()  # on, as for every new player
    box.uncheck()
    box.locator("xpath=ancestor::form").locator("button[type=submit]").click()
    page.wait_for_load_state()
    assert User.objects.get(pk=white.pk).confirm_turn is False
    match = off_the_browser_thread(services.match_create, creator=white, turn_seconds=120)
    push_test_dice(6, 1, 6, 5)
    off_the_browser_thread(services.match_accept, user=black, match_id=match.pk)
    page.goto(f"{seam_site.url}/matches/{match.pk}/")
    page.wait_for_selector('#match-app[data-phase="roll"][data-turn="w"]')
    _version_moves(page, lambda: page.click("#roll-button"))
    _play_24_18_13(page)
    page.wait_for_selector('#match-app[data-turn="b"]')
    assert Turn.objects.count() == 1 and not page.locator("#confirm-button").is_visible()
    assert page.errors == []
