"""In a real browser, a phone (390×844) and a desktop (1280×800): the tournament's chat form
appears when a spectator joins (from the socket's `me`, static/js/tournament.js `showChat`) and
goes at the end (the `status` message), a note standing in for it; a finished tournament match's
fairness panel says that the server drew both client seeds. Screenshots in English and Russian go
to /tmp/tournament-shots/ (looked at by hand)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_live_match import off_the_browser_thread
from tests.e2e.test_tournaments import DESKTOP, PHONE, SHOTS, page_for
from tests.tournaments.conftest import arena, finished_tournament_match, rated
from tournaments.models import Tournament
from tournaments.services.clock import tournament_finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("size", "language"), [(PHONE, "en"), (DESKTOP, "ru")],
                         ids=["phone-en", "desktop-ru"])  # fmt: skip
def test_the_chat_form_follows_the_viewers_standing_and_the_end(browser, site, client, size,
                                                                 language):  # fmt: skip
    viewer = rated(f"chatter_{language}")
    tournament = arena(name="Chat arena")
    page = page_for(browser, site, client.__class__, viewer, size, language)
    SHOTS.mkdir(exist_ok=True)
    width = size["viewport"]["width"]
    page.goto(f"{site.url}/tournaments/{tournament.pk}/")
    expect(page.locator("#chat-closed")).to_be_visible()
    expect(page.locator("#chat-form")).to_be_hidden()
    page.screenshot(path=SHOTS / f"chat-spectator-{width}-{language}.png", full_page=True)
    page.locator("#join").click()
    expect(page.locator("#chat-form")).to_be_visible()
    expect(page.locator("#chat-closed")).to_be_hidden()
    page.locator("#chat-text").fill("good luck")
    page.locator("#chat-form button").click()
    expect(page.locator("#chat-lines")).to_contain_text("good luck")
    page.screenshot(path=SHOTS / f"chat-player-{width}-{language}.png", full_page=True)
    Tournament.objects.filter(pk=tournament.pk).update(
        ends_at=timezone.now() - timedelta(seconds=1)
    )
    assert off_the_browser_thread(tournament_finish, tournament_id=tournament.pk)
    expect(page.locator("#chat-form")).to_be_hidden()
    expect(page.locator("#chat-closed")).to_be_visible()
    page.context.close()


def test_a_tournament_matchs_fairness_panel_says_who_drew_the_seeds(browser, site, client):
    match_id, ana = finished_tournament_match()
    for size, language in ((PHONE, "en"), (DESKTOP, "ru")):
        page = page_for(browser, site, client.__class__, ana, size, language)
        page.goto(f"{site.url}/matches/{match_id}/")
        note = page.locator('[data-fair="server-drew-seeds"]')
        expect(note).to_be_visible()
        expect(note).to_contain_text(re.compile("server|сервер"))
        note.scroll_into_view_if_needed()
        width = size["viewport"]["width"]
        page.locator("#fairness").screenshot(path=SHOTS / f"fairness-{width}-{language}.png")
        page.goto(f"{site.url}/fairness/#tournament-seeds")
        expect(page.locator("#tournament-seeds")).to_be_visible()
        page.screenshot(path=SHOTS / f"fairness-page-{width}-{language}.png")
        page.context.close()
