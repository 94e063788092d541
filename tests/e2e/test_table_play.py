"""Play at the table in a real browser against the real site: a whole turn played with the keyboard
only (roll, pick, undo, pick again), and a turn played by one drag of one checker by both dice (the
page sends two ordinary steps). Screenshots at phone and desktop sizes go to /tmp/table-shots/."""

from __future__ import annotations

from pathlib import Path

import pytest

from games import services
from games.dice import push_test_dice
from games.models import Game, Turn
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread, seam_site
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["seam_site"]  # the fixture, used by name below

SHOTS = Path("/tmp/table-shots")


def _match_page(browser, site, client, name: str, viewport: dict):
    white, black = make_user(f"{name}_w"), make_user(f"{name}_b")
    match = off_the_browser_thread(services.match_create, creator=white, turn_seconds=120)
    push_test_dice(6, 1, 6, 5)  # White starts; then White rolls 6-5
    off_the_browser_thread(services.match_accept, user=black, match_id=match.pk)
    page = logged_in_page(browser, site, client.__class__, white)
    page.set_viewport_size(viewport)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site.url}/matches/{match.pk}/")
    page.wait_for_selector('#match-app[data-phase="roll"][data-side="w"]')
    return match, page, errors


def _wait_version_after(page, version: str) -> None:
    page.wait_for_function(
        "v => document.querySelector('#match-app').dataset.version !== v", arg=version
    )


def _press(page, key: str) -> None:
    version = page.locator("#match-app").get_attribute("data-version")
    page.keyboard.press(key)
    _wait_version_after(page, version)


@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
)
def test_a_turn_played_with_the_keyboard_only(browser, seam_site, client, viewport):
    match, page, errors = _match_page(
        browser, seam_site, client, f"keys{viewport['width']}", viewport
    )
    _press(page, "r")  # roll
    page.wait_for_selector('#match-app[data-phase="move"]')
    # Tab into the board: the keyboard cursor starts on a checker that can move (own 24).
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('pt')"):
            break
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused.startswith("Point 24: 15 white") and "can move" in focused, focused
    page.keyboard.press("Enter")  # pick the head checker
    for _ in range(6):
        page.keyboard.press("ArrowLeft")  # along the top row to own 18
    assert "move here" in page.evaluate("document.activeElement.getAttribute('aria-label')")
    _press(page, "Enter")  # 24/18 with the 6
    _press(page, "u")  # undo it
    assert page.evaluate("window.matchApp.view.game.steps") == []
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # not a source: nothing picked
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # own 24 again
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
    _press(page, "Enter")  # 24/18
    page.keyboard.press("Enter")  # the checker on 18
    for _ in range(5):
        page.keyboard.press("ArrowLeft")  # to own 13
    page.screenshot(path=str(SHOTS / f"keyboard-{viewport['width']}.png"))
    _press(page, "Enter")  # 18/13: the turn is complete and passes
    page.wait_for_selector('#match-app[data-turn="b"]')
    game = Game.objects.get(match=match)
    turn = Turn.objects.get(game=game, number=1)
    assert turn.steps == [[24, 18, 6], [18, 13, 5]] and not turn.by_server
    assert errors == []


@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
)
def test_one_drag_moves_one_checker_by_both_dice(browser, seam_site, client, viewport):
    match, page, errors = _match_page(
        browser, seam_site, client, f"drag{viewport['width']}", viewport
    )
    page.locator("#roll-button").click()
    page.wait_for_selector('#match-app[data-phase="move"]')
    # Own 13 (board index 12) is offered as a destination of the head checker: 6 + 5.
    combined = page.evaluate("window.matchApp.view.game.combined_moves")
    assert combined == [[[24, 18, 6], [18, 13, 5]]]
    source = page.locator('.pt[data-index="23"] .checker.top').bounding_box()
    target = page.locator('.pt[data-index="12"] .pt-hit').bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + 30, steps=12)
    page.screenshot(path=str(SHOTS / f"drag-{viewport['width']}.png"))
    page.mouse.up()
    page.wait_for_selector('#match-app[data-turn="b"]')
    turn = Turn.objects.get(game=Game.objects.get(match=match), number=1)
    assert turn.steps == [[24, 18, 6], [18, 13, 5]] and not turn.by_server
    page.screenshot(path=str(SHOTS / f"after-drag-{viewport['width']}.png"))
    assert errors == []


@pytest.fixture
def short_window_site(sites, settings):
    """A variant of the session's site with a 3-second reconnect window: the claim test waits for
    the window to run out (60 s by default)."""
    settings.DEBUG = True
    settings.NARDY_TEST_DICE = True
    push_test_dice()  # empty the queue
    yield sites.another(RECONNECT_WINDOW_SECONDS="3")
    push_test_dice()


def test_a_bear_off_that_can_end_two_ways_asks_which_dice(browser, short_window_site, client):
    match, page, errors = _match_page(
        browser, short_window_site, client, "choice", {"width": 390, "height": 844}
    )
    # White bears off: one checker on its 5, the rest on its 2; 6-3 can take the 5 off with the 6
    # alone, or 5/2/off with both dice.
    game = Game.objects.get(match=match)
    board = [0] * 24
    board[4], board[1], board[11] = 1, 14, -15
    Game.objects.filter(pk=game.pk).update(
        board=board, turn_board=board, white_has_moved=True, black_has_moved=True
    )
    push_test_dice(6, 3)
    page.reload()
    page.wait_for_selector('#match-app[data-phase="roll"]')
    page.locator("#roll-button").click()
    page.wait_for_selector('#match-app[data-phase="move"]')
    page.locator('.pt[data-index="4"]').click()
    page.locator(".tray.near").click()
    choice = page.locator("#move-choice")
    choice.wait_for(state="visible")
    assert choice.locator("button.choice").all_text_contents() == ["6", "3 + 6"]
    page.screenshot(path=str(SHOTS / "choice-390.png"))
    version = page.locator("#match-app").get_attribute("data-version")
    choice.locator("button.choice", has_text="3 + 6").click()
    page.wait_for_function(
        "v => Number(document.querySelector('#match-app').dataset.version) >= Number(v) + 2",
        arg=version,
    )
    page.wait_for_selector('#match-app[data-turn="b"]')
    game.refresh_from_db()
    assert game.board[4] == 0 and game.board[1] == 14
    assert Turn.objects.get(game=game, number=1).steps == [[5, 2, 3], [2, 0, 6]]
    assert errors == []


@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
)
def test_an_opponent_who_never_comes_back_can_be_claimed(
    browser, short_window_site, client, viewport
):
    match, page, errors = _match_page(
        browser, short_window_site, client, f"claim{viewport['width']}", viewport
    )
    note = page.locator("#away-note")
    note.wait_for(state="visible")
    page.locator("#claim-button").wait_for(state="visible")  # the 3-second window ran out
    assert page.locator("#wait-button").is_visible()
    page.screenshot(path=str(SHOTS / f"claim-{viewport['width']}.png"))
    page.locator("#wait-button").click()
    assert not page.locator("#wait-button").is_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#claim-button").click()
    white = match.creator.username
    page.wait_for_selector(f'#match-app[data-result="{white}:abandoned"]')
    page.screenshot(path=str(SHOTS / f"claimed-{viewport['width']}.png"))
    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner_id) == (
        "finished", "abandoned", match.creator_id,
    )  # fmt: skip
    assert errors == []
