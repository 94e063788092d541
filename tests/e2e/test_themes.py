"""The main pages in light and dark, on a phone (390x844, the menu open) and a desktop (1280x800),
in English and Russian: the look is drawn by the server on the first paint (the dark sheet is in
force before any script runs), and every visible link and button reads at 4.5:1 or better in both
schemes (tests/e2e/contrast.py). Dark is reached both ways: a player who follows a dark device,
and one who chose dark on a light device. The match board is also drawn in each board theme.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import pytest

from accounts.models import User
from analysis.services import analysis_request, analysis_run
from games import services
from tests.analysis.test_analysis_services import play_bot_against_random
from tests.e2e.contrast import low_contrast
from tests.e2e.pages import SIZES, shots_folder, signed_in_context, visitor_context
from tests.e2e.test_live_match import off_the_browser_thread
from tests.factories import make_user
from tests.ratings.conftest import play_rated
from tests.tournaments.conftest import arena

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (the look saved on the account, the device's scheme): light chosen, dark followed from the
# device, dark chosen on a light device.
SCHEMES = {
    "light": ("light", "light"),
    "dark": ("system", "dark"),
    "chosen-dark": ("dark", "light"),
}
BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def analysed_match(player, opponent):
    match = off_the_browser_thread(services.match_create, creator=player, rated=False)
    off_the_browser_thread(services.match_accept, user=opponent, match_id=match.pk)
    off_the_browser_thread(play_bot_against_random, match_id=match.pk, strong=player, weak=opponent)
    off_the_browser_thread(analysis_request, user=player, match_id=match.pk)
    off_the_browser_thread(analysis_run, match_id=match.pk)
    return match


def active_match(player, opponent):
    match = off_the_browser_thread(services.match_create, creator=player, rated=False)
    off_the_browser_thread(services.match_accept, user=opponent, match_id=match.pk)
    return match


@pytest.mark.parametrize("language", ["en", "ru"])
def test_main_pages_in_light_and_dark(browser, site, client, tmp_path, language):
    shots = shots_folder(tmp_path)
    anna, boris = make_user(f"anna_themes_{language}"), make_user(f"boris_themes_{language}")
    play_rated(anna, boris, length=3)
    replayed = analysed_match(anna, boris)
    playing = active_match(anna, boris)
    tournament = arena(name="Dark arena")
    pages = {
        "home": "/", "play": "/play/", "match": f"/matches/{playing.pk}/",
        "replay": f"/matches/{replayed.pk}/replay/", "leaderboard": "/leaderboard/",
        "profile": f"/@/{anna.username}", "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{tournament.pk}/", "rules": "/rules/",
        "preferences": "/settings/",
    }  # fmt: skip
    failures: list[str] = []
    backgrounds: dict[str, set[str]] = {name: set() for name in SCHEMES}
    for scheme, (saved, device) in SCHEMES.items():
        User.objects.filter(pk=anna.pk).update(colour_scheme=saved)
        for size in SIZES:
            context = signed_in_context(
                browser, site, client.__class__, anna, size=size, language=language
            )
            page = context.new_page()
            page.emulate_media(color_scheme=device)
            for name, path in pages.items():
                page.goto(site.url + path)
                if name == "match":
                    page.wait_for_selector(".board-svg .checker")
                if name == "replay":
                    page.wait_for_selector("#analysis[data-ready='1']")
                backgrounds[scheme].add(page.evaluate(BACKGROUND))
                if size == "phone":
                    page.locator("label.nav-toggle-label").click()
                failures += [f"{scheme} {size} {name}: {item}" for item in low_contrast(page)]
                if scheme != "chosen-dark":
                    page.screenshot(
                        path=shots / f"{name}-{scheme}-{size}-{language}.png", full_page=True
                    )
            context.close()

            visitor = visitor_context(browser, site, size=size, language=language)
            page = visitor.new_page()
            page.emulate_media(color_scheme="dark" if scheme == "dark" else "light")
            if scheme == "chosen-dark":  # the footer's switch, as a visitor
                page.goto(site.url + "/accounts/login/")
                page.locator(".scheme-switch button[value=dark]").click()
                page.wait_for_load_state()
            elif scheme == "light":
                page.goto(site.url + "/")
                page.locator(".scheme-switch button[value=light]").click()
                page.wait_for_load_state()
            page.goto(site.url + "/accounts/login/")
            backgrounds[scheme].add(page.evaluate(BACKGROUND))
            failures += [f"{scheme} {size} login: {item}" for item in low_contrast(page)]
            if scheme != "chosen-dark":
                page.screenshot(path=shots / f"login-{scheme}-{size}-{language}.png")
            visitor.close()
    assert not failures, "\n".join(failures)
    # One page colour per scheme, dark reached either way.
    assert backgrounds["light"] == {"rgb(244, 239, 230)"}
    assert backgrounds["dark"] == backgrounds["chosen-dark"] == {"rgb(23, 19, 15)"}


FIELDS = {
    "wood": "rgb(234, 214, 173)",
    "felt": "rgb(30, 107, 60)",
    "contrast": "rgb(255, 255, 255)",
}


@pytest.mark.parametrize("theme", FIELDS)
def test_the_board_in_each_theme(browser, site, client, tmp_path, theme):
    shots = shots_folder(tmp_path)
    anna, boris = make_user(f"anna_board_{theme}"), make_user(f"boris_board_{theme}")
    User.objects.filter(pk=anna.pk).update(board_theme=theme, checker_colours="ivory-crimson")
    playing = active_match(anna, boris)
    for size in SIZES:
        context = signed_in_context(browser, site, client.__class__, anna, size=size, language="en")
        page = context.new_page()
        page.goto(f"{site.url}/matches/{playing.pk}/")
        page.wait_for_selector(".board-svg .checker")
        field = page.evaluate("getComputedStyle(document.querySelector('.board-field')).fill")
        black = page.evaluate("getComputedStyle(document.querySelector('.checker.b')).fill")
        assert field == FIELDS[theme]
        # Crimson, except on the high-contrast board, which keeps its black.
        assert black == ("rgb(0, 0, 0)" if theme == "contrast" else "rgb(142, 27, 36)")
        page.locator(".match-main").screenshot(path=shots / f"board-{theme}-{size}.png")
        context.close()
