"""Correspondence matches in real browsers (docs/rules.md, Platform rules, Correspondence): one
player makes one on the Play page's form, the other accepts it on its page, and the two play a
few turns, the clock counting days as hours; then the home page's "Your turn" list and the
profile's Correspondence tab, phone and desktop, English and Russian.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Match, Turn
from tests.e2e.pages import SIZES, shots_folder, signed_in_context
from tests.e2e.test_live_match import off_the_browser_thread, play_one_action
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"your_turn": "Your turn", "tab": "Correspondence", "left": "left"},
    "ru": {"your_turn": "Ваш ход", "tab": "По переписке", "left": "осталось"},
}
TURNS = 4


def make_on_the_form(page, site, *, days: int) -> None:
    """Choose the correspondence clock on the Play page's form (under "More options")."""
    page.goto(f"{site.url}/play/")
    form = page.locator("#create-form")
    form.locator("details.more-options summary").click()
    form.locator("select[name=time_control]").select_option("correspondence")
    form.locator("select[name=move_days]").select_option(str(days))


def test_two_players_make_and_play_a_correspondence_match(browser, site, client, tmp_path):
    anna, boris = make_user("corr_anna"), make_user("corr_boris")
    pages = []
    for user, size in ((anna, "desktop"), (boris, "desktop")):
        context = signed_in_context(browser, site, client.__class__, user, size=size, language="en")
        pages.append(context.new_page())
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    make_on_the_form(pages[0], site, days=2)
    pages[0].locator("#create-form button[type=submit]").click()
    pages[0].wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get(creator=anna)
    assert (match.time_control, match.move_days, match.rated) == ("correspondence", 2, True)
    pages[1].goto(f"{site.url}/matches/{match.pk}/")
    pages[1].screenshot(
        path=shots_folder(tmp_path) / "corr-challenge-desktop-en.png", full_page=True
    )
    pages[1].locator("#accept-button").click()
    pages[1].wait_for_url(re.compile(rf"/matches/{match.pk}/$"))
    for page in pages:
        page.goto(f"{site.url}/matches/{match.pk}/")
        page.wait_for_selector("#match-app[data-status=active]")
    # The running clock counts the two days as hours: 47:59:5x, not 2879:5x.
    clock = re.compile(r"^4[78]:\d\d:\d\d$")
    expect(pages[0].locator(".player-bar .clock").filter(has_text=clock)).to_have_count(1)
    deadline = time.monotonic() + 240
    while Turn.objects.filter(game__match=match).count() < TURNS:
        assert time.monotonic() < deadline, "the players did not play their turns"
        if not any([play_one_action(page) for page in pages]):
            time.sleep(0.1)
    match.refresh_from_db()
    assert match.status == "active" and (match.timeouts_creator, match.timeouts_opponent) == (0, 0)
    assert not Turn.objects.filter(game__match=match, by_server=True).exists()
    version = match.version
    for page in pages:
        page.wait_for_function(
            "v => window.matchApp && window.matchApp.version >= v", arg=version, timeout=10_000
        )
    # Whoever is to play finds the match in "Your turn" on the home page.
    game = match.games.get()
    to_play = pages[0] if game.seat_of_side(game.turn) == 0 else pages[1]
    to_play.goto(f"{site.url}/")
    expect(to_play.locator(f'#your-turn li[data-match-id="{match.pk}"]')).to_be_visible()
    assert errors == []


def prepared(language: str, size: str, fixed_dice):
    """A player with three correspondence matches: two turns waiting for them (2 and 7 days a
    move), one for the opponent (the opening roll decides who moves first)."""
    me = make_user(f"corr_{language}_{size}", language=language)
    for days, mine_first in ((7, True), (2, True), (1, False)):
        challenge = off_the_browser_thread(
            services.match_create, creator=me, time_control="correspondence", move_days=days,
            turn_seconds=None, private=True,
        )  # fmt: skip
        fixed_dice(*((6, 2) if mine_first else (2, 6)))
        off_the_browser_thread(
            services.match_accept, user=make_user(), match_id=challenge.pk,
            token=challenge.invite_token,
        )  # fmt: skip
    return me


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_form_your_turn_and_the_tab_on_a_phone_and_a_desktop(
    browser, site, client, tmp_path, size, language, fixed_dice
):
    words = WORDS[language]
    me = prepared(language, size, fixed_dice)
    shots = shots_folder(tmp_path)
    context = signed_in_context(browser, site, client.__class__, me, size=size, language=language)
    page = context.new_page()
    make_on_the_form(page, site, days=3)
    days = page.locator("select[name=move_days]")
    days.scroll_into_view_if_needed()
    page.screenshot(path=shots / f"corr-form-{size}-{language}.png")
    box = days.bounding_box()
    assert box and box["x"] + box["width"] <= SIZES[size][0], "the days field is on screen"

    page.goto(f"{site.url}/")
    your_turn = page.locator("#your-turn")
    expect(your_turn.locator("h2")).to_contain_text(words["your_turn"])
    expect(your_turn.locator("li")).to_have_count(2)
    expect(your_turn.locator("li").first).to_contain_text(words["left"])
    your_turn.scroll_into_view_if_needed()
    page.screenshot(path=shots / f"corr-your-turn-{size}-{language}.png")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size][0], f"the home page scrolls sideways ({width}px)"

    page.goto(f"{site.url}/@/{me.username}?tab=correspondence#matches")
    expect(page.locator("#tab-correspondence")).to_contain_text(words["tab"])
    rows = page.locator("#correspondence-matches tbody tr")
    expect(rows).to_have_count(3)
    page.locator("#matches").scroll_into_view_if_needed()
    page.screenshot(path=shots / f"corr-tab-{size}-{language}.png")
    context.close()


def test_a_phone_accepts_a_correspondence_challenge(browser, site, client, tmp_path):
    anna, boris = make_user("corr_anna_phone"), make_user("corr_boris_phone")
    challenge = off_the_browser_thread(
        services.match_create, creator=anna, time_control="correspondence", move_days=5,
        turn_seconds=None,
    )  # fmt: skip
    context = signed_in_context(browser, site, client.__class__, boris, size="phone", language="en")
    page = context.new_page()
    page.goto(f"{site.url}/matches/{challenge.pk}/")
    expect(page.locator("#challenge")).to_contain_text("5 days per move")
    page.screenshot(path=shots_folder(tmp_path) / "corr-challenge-phone-en.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES["phone"][0], f"the challenge page scrolls sideways ({width}px)"
    page.locator("#accept-button").click()
    page.wait_for_selector("#match-app[data-status=active]")
    assert Match.objects.get(pk=challenge.pk).status == "active"
    context.close()
