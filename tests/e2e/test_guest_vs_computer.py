"""A visitor without an account presses "Play now", plays a whole casual match against the
computer by clicking the board (the bot moving through the real Celery worker), then signs up
and finds the match in the new profile. Screenshots at phone and desktop sizes go to
/tmp/bots-shots/."""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path

import pytest

from accounts.models import User
from games.dice import push_test_dice
from games.models import Match
from tests.e2e.test_live_match import DICE_PATTERN, play_one_action
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/tmp/bots-shots")
MATCH_TIMEOUT_SECONDS = 600
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


@pytest.fixture
def computer_site(site, settings):
    """The session's site: dice seam on, the computer's pause short, no frame limit a fast test
    would reach (tests/conftest.py, SITE_SETTINGS)."""
    settings.DEBUG = True
    settings.NARDY_TEST_DICE = True
    push_test_dice()  # empty the queue
    yield site
    push_test_dice()


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{name}-{size_name}.png"), full_page=True)
    page.set_viewport_size(SIZES["desktop"])


def test_a_guest_plays_the_computer_then_signs_up_and_keeps_the_match(browser, computer_site):
    # High dice make the race short (the seam feeds both the person's and the bot's rolls).
    push_test_dice(6, 1, *itertools.islice(itertools.cycle(DICE_PATTERN), 1500))
    page = browser.new_context(viewport=SIZES["desktop"]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{computer_site.url}/")
    shoot(page, "home-anonymous")
    # The Play page's "Play now" (the home page's one click is tests/e2e/test_home_play.py):
    # this match is untimed, set on the form.
    page.goto(f"{computer_site.url}/play/")
    page.click("#play-now")
    page.wait_for_url(re.compile(r".*/play/#computer$"))
    guest = User.objects.get(is_guest=True)
    assert page.locator("#guest-notice").is_visible()
    assert page.locator("#bot_rated").count() == 0  # no rated play for guests
    page.select_option("#bot_level", "beginner")
    page.select_option("#bot_turn_seconds", "0")  # untimed: casual
    shoot(page, "play-guest")
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/", page.url).group(1))
    page.wait_for_selector("#match-app[data-status]")  # set by the first render
    # The players' line is drawn by the page's script from the snapshot: wait for it (the name
    # alone is on the page earlier, server-rendered in the merged chat/fair-dice panels).
    page.locator(".bot-mark").first.wait_for()
    assert "Bot-Beginner" in page.locator("#match-app").inner_text()

    deadline = time.monotonic() + MATCH_TIMEOUT_SECONDS
    actions = 0
    shot_midgame = False
    while page.locator("#match-app").get_attribute("data-result") is None:
        assert time.monotonic() < deadline, f"the match did not end after {actions} actions"
        if play_one_action(page):
            actions += 1
            if actions == 12 and not shot_midgame:
                shoot(page, "match-vs-computer")
                shot_midgame = True
        else:
            time.sleep(0.05)
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished" and match.end_reason == "finished" and not match.rated
    assert match.creator_id == guest.pk and match.opponent.is_bot
    assert actions > 5
    shoot(page, "match-over-computer")

    # Sign up from the guest session: the same row becomes the account, the match stays.
    page.click("#guest-signup")
    page.wait_for_url(re.compile(r".*/accounts/signup/"))
    page.fill("input[name=username]", "kept_games")
    page.fill("input[name=email]", "kept_games@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form[action*=signup] button[type=submit]").click()
    # Still signed in, back on the match page the player signed up from.
    page.wait_for_url(re.compile(rf".*/matches/{match_id}/$"))
    assert page.locator(".account-menu summary").inner_text() == "kept_games"
    user = User.objects.get(username="kept_games")
    assert user.pk == guest.pk and not user.is_guest
    page.goto(f"{computer_site.url}/@/kept_games")
    assert page.locator(f'#match-history tr[data-match-id="{match_id}"]').count() == 1
    assert "Bot-Beginner" in page.locator("#match-history").inner_text()
    shoot(page, "profile-after-signup")
    assert errors == []
