"""One click from the home page into a game against Bot-Beginner, for a visitor (who becomes a
guest) and a signed-in player, on a phone (390x844) and a desktop (1280x800), in English and
Russian; the Play page's forms show the common choices and fold the rest under "More options".

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Match
from tests.e2e.pages import SIZES, shots_folder, signed_in_context, visitor_context
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"play": "Play the computer now", "more": "More options"},
    "ru": {"play": "Сыграть с компьютером сейчас", "more": "Ещё настройки"},
}


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_visitors_first_click_is_a_game(browser, site, tmp_path, size, language):
    width, height = SIZES[size]
    context = visitor_context(browser, site, size=size, language=language)
    page = context.new_page()
    page.goto(site.url + "/")
    button = page.get_by_role("button", name=WORDS[language]["play"])
    box = button.bounding_box()
    assert box and box["y"] + box["height"] <= height, "the button is on the first screen"
    page.screenshot(path=shots_folder(tmp_path) / f"home-anonymous-{size}-{language}.png")
    button.click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_selector("#match-app[data-status=active]")
    match = Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert match.opponent.username == "Bot-Beginner" and match.creator.is_guest
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", match.client_seed_creator)
    # Back home: the match in progress is offered first.
    page.goto(site.url + "/")
    expect(page.locator("#resume a")).to_have_attribute("href", f"/matches/{match.pk}/")
    page.screenshot(path=shots_folder(tmp_path) / f"home-resume-{size}-{language}.png")
    context.close()
    assert User.objects.filter(is_guest=True).count() >= 1


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_play_forms_fold_the_rest(browser, site, client, tmp_path, size, language):
    anna = make_user(f"anna_forms_{size}_{language}")
    context = signed_in_context(browser, site, client.__class__, anna, size=size, language=language)
    page = context.new_page()
    page.goto(site.url + "/play/#computer")
    form = page.locator("#computer-form")
    expect(form.locator("#bot_level")).to_have_value("beginner")
    seed = form.locator("input[name=client_seed]")
    assert not seed.is_visible(), "the client seed waits under More options"
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", seed.input_value())  # filled by seed.js
    for label in form.locator(".field > label").all():
        if label.is_visible():
            fits = label.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
            assert fits, f"label cut off: {label.inner_text()}"
    form.get_by_text(WORDS[language]["more"]).click()
    expect(seed).to_be_visible()
    page.screenshot(
        path=shots_folder(tmp_path) / f"play-forms-{size}-{language}.png", full_page=True
    )
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    assert Match.objects.get(creator=anna).opponent.username == "Bot-Beginner"
    context.close()
