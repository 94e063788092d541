"""The doubling cube in two real browsers: White doubles and Black takes with the
buttons, White plays its turn on the board, Black redoubles and White drops; in game 2 Black
doubles and White drops again: Black wins the match to 3, 3-0."""

from __future__ import annotations

import itertools

import pytest

from games import services
from games.dice import push_test_dice
from tests.e2e.test_live_match import (  # noqa: F401 - seam_site is a fixture
    DICE_PATTERN,
    logged_in_page,
    off_the_browser_thread,
    play_one_action,
    seam_site,
)
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def click_and_wait(page, button: str) -> None:
    """Click a button and wait for the server's event (the version moves on)."""
    version = page.locator("#match-app").get_attribute("data-version")
    page.locator(f"#{button}").click()
    page.wait_for_function(
        "v => document.querySelector('#match-app').dataset.version !== v", arg=version
    )


def test_double_take_redouble_and_drop_by_clicking(browser, seam_site, client):  # noqa: F811
    white, black = make_user("cube_clicker_w"), make_user("cube_clicker_b")
    match = off_the_browser_thread(
        services.match_create, creator=white, turn_seconds=120, length=3, doubling_cube=True,
        crawford=False,
    )  # fmt: skip
    push_test_dice(6, 1, *itertools.islice(itertools.cycle(DICE_PATTERN), 200))
    off_the_browser_thread(services.match_accept, user=black, match_id=match.pk)
    pages = [logged_in_page(browser, seam_site, client.__class__, user) for user in (white, black)]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("dialog", lambda dialog: dialog.accept())  # "Drop the double…?"
        page.goto(f"{seam_site.url}/matches/{match.pk}/")
        page.wait_for_selector("#match-app[data-status]")  # set by the first render
    white_page, black_page = pages
    assert "doubling cube" in white_page.text_content("#rule-options").lower()

    white_page.wait_for_selector("#double-button:visible")
    assert black_page.locator("#double-button").is_hidden()
    click_and_wait(white_page, "double-button")
    black_page.wait_for_selector("#take-button:visible")
    assert "doubles to 2" in black_page.text_content("#status")
    assert white_page.locator("#roll-button").is_hidden()  # the doubler waits for the answer
    click_and_wait(black_page, "take-button")
    white_page.wait_for_selector("#roll-button:visible")
    assert white_page.locator("#double-button").is_hidden()  # the cube is Black's now
    assert "cube 2" in white_page.text_content("#match-info")

    # White plays its whole turn on the board; then Black, owning the cube, redoubles.
    for _ in range(50):
        if black_page.locator("#double-button").is_visible():
            break
        play_one_action(white_page)
    else:
        pytest.fail("White's turn did not pass to Black")
    assert "doubles to 2, taken" in white_page.text_content("#moves")
    click_and_wait(black_page, "double-button")
    white_page.wait_for_selector("#drop-button:visible")
    click_and_wait(white_page, "drop-button")  # White loses game 1 at 2

    # Game 2 is started by Black (the winner): it doubles, White drops: 3-0.
    black_page.wait_for_selector("#double-button:visible")
    click_and_wait(black_page, "double-button")
    white_page.wait_for_selector("#drop-button:visible")
    click_and_wait(white_page, "drop-button")
    match.refresh_from_db()
    assert (match.status, match.end_reason, match.scores) == ("finished", "finished", (0, 3))
    for page in pages:
        page.wait_for_selector(f'#match-app[data-result="{black.username}:finished"]')
    assert errors == []
