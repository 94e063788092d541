"""A tournament page live in real browsers, a phone (390×844) and a desktop (1280×800): both
players join with the button, are paired and land on the same board, play it out (a
resignation), come back to live standings with their own row, and see the podium at the end.
The beat's sweep is a service call here (tournaments/live.py `publish_changed`), made where the
beat would. Screenshots in English and Russian go to /tmp/tournament-shots/ (looked at by hand).
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from config import processes
from games import services as game_services
from games.models import Match
from tests.e2e.test_live_match import off_the_browser_thread
from tests.tournaments.conftest import arena, play_turns, rated
from tournaments import live
from tournaments.models import Player, Tournament
from tournaments.services.clock import tournament_finish
from tournaments.services.players import tournament_pause

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/tournament-shots")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def page_for(browser, site, client_class, user, size: dict, language: str = "en"):
    client = client_class()
    client.force_login(user)
    context = browser.new_context(**size)
    context.add_cookies([
        {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": site.url},
        {"name": "django_language", "value": language, "url": site.url},
    ])  # fmt: skip
    return context.new_page()


def sweep(tournament_id: int) -> None:
    """The beat's sweep, once a second here too, until it sends this tournament's standings: it
    sends a tournament at most once a second (tournaments/live.py), and leaves a change within
    that second to the next sweep, which this test site (no beat) only gets from here."""
    processes.wait_until(
        lambda: tournament_id in off_the_browser_thread(live.publish_changed),
        timeout=10,
        what=f"the sweep to send tournament {tournament_id}'s standings",
        interval=live.PUBLISH_INTERVAL_MS / 1000,
    )


def as_served(context, url: str):
    """A new page of `context` at `url` whose tournament socket never reaches the server: the
    page as the server rendered it, with no message to correct it."""
    page = context.new_page()
    page.route_web_socket(re.compile(r"/ws/tournaments/"), lambda socket: None)
    page.goto(url)
    return page


def test_join_play_standings_and_podium_on_a_phone_and_a_desktop(browser, site, client):
    ana, bogdan = rated("ana", 1600), rated("bogdan", 1500)
    tournament = arena(name="Browser arena")
    url = f"{site.url}/tournaments/{tournament.pk}/"
    phone = page_for(browser, site, client.__class__, ana, PHONE)
    desktop = page_for(browser, site, client.__class__, bogdan, DESKTOP, language="ru")
    SHOTS.mkdir(exist_ok=True)
    for page in (phone, desktop):
        page.goto(url)
        expect(page.locator("#countdown")).to_contain_text(re.compile(r"\d+:\d\d"))
    phone.screenshot(path=SHOTS / "before-join-390-en.png", full_page=True)
    desktop.screenshot(path=SHOTS / "before-join-1280-ru.png", full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the tournament page scrolls sideways on a phone ({width}px)"

    phone.locator("#join").click()
    expect(phone.locator("#withdraw")).to_be_visible()
    desktop.locator("#join").click()  # two free players: paired at once, both pages go to it
    phone.wait_for_url(re.compile(r"/matches/\d+/$"), timeout=30_000)
    desktop.wait_for_url(re.compile(r"/matches/\d+/$"), timeout=30_000)
    assert phone.url == desktop.url
    match = Match.objects.get(pk=int(phone.url.rstrip("/").rsplit("/", 1)[1]))
    assert {match.creator_id, match.opponent_id} == {ana.pk, bogdan.pk}

    off_the_browser_thread(tournament_pause, user=bogdan, tournament_id=tournament.pk, pause=True)
    off_the_browser_thread(play_turns, match_id=match.pk)  # enough to count (docs/rules.md)
    off_the_browser_thread(game_services.match_resign, user=bogdan, match_id=match.pk)
    for page in (phone, desktop):
        page.goto(url)
    sweep(tournament.pk)
    expect(phone.locator("#standings-rows tr").first).to_contain_text("ana")
    expect(phone.locator("#standings-rows tr.own")).to_contain_text("2")
    expect(desktop.locator("#resume")).to_be_visible()
    expect(desktop.locator("#tournament-status")).to_have_text("идёт")
    # As served, before any socket message: the paused player's Resume and Withdraw.
    served = as_served(desktop.context, url)
    expect(served.locator("#resume")).to_be_visible()
    expect(served.locator("#withdraw")).to_be_visible()
    for control in ("#join", "#pause"):
        expect(served.locator(control)).to_be_hidden()
    served.close()
    phone.screenshot(path=SHOTS / "standings-390-en.png", full_page=True)
    desktop.screenshot(path=SHOTS / "standings-1280-ru.png", full_page=True)

    Tournament.objects.filter(pk=tournament.pk).update(
        ends_at=timezone.now() - timedelta(seconds=1)
    )
    assert off_the_browser_thread(tournament_finish, tournament_id=tournament.pk)
    # The end is told at once (a `status` message), before the sweep sends the podium: from then
    # on the page offers neither pause nor withdraw.
    expect(phone.locator("#tournament-status")).to_have_text("finished")
    expect(desktop.locator("#tournament-status")).to_have_text("завершён")
    for page, control in ((phone, "#pause"), (phone, "#withdraw"), (desktop, "#resume")):
        expect(page.locator(control)).to_be_hidden()
    # Nor does the finished tournament's page as served, before its socket says anything.
    for context in (phone.context, desktop.context):
        served = as_served(context, url)
        expect(served.locator("#tournament-status")).to_have_text(re.compile("finished|завершён"))
        for control in ("#join", "#pause", "#resume", "#withdraw"):
            expect(served.locator(control)).to_be_hidden()
        served.close()
    sweep(tournament.pk)
    expect(phone.locator("#podium li.place-1")).to_contain_text("ana")
    expect(desktop.locator("#podium li.place-2")).to_contain_text("bogdan")
    expect(phone.locator("#join")).to_be_hidden()
    phone.screenshot(path=SHOTS / "podium-390-en.png", full_page=True)
    desktop.screenshot(path=SHOTS / "podium-1280-ru.png", full_page=True)
    assert Player.objects.get(user=ana).final_place == 1

    profile = page_for(browser, site, client.__class__, bogdan, DESKTOP)
    profile.goto(f"{site.url}/@/ana")
    expect(profile.locator("#tournament-history")).to_contain_text("Browser arena")
    for page in (phone, desktop, profile):
        page.context.close()


def test_a_player_the_arena_paused_as_absent_is_told_so_and_resumes(browser, site, client):
    """docs/rules.md "Arena tournaments", item 5: the page says why beside Resume, in the
    viewer's language, on a phone and a desktop; Resume brings them back and pairs them."""
    ana, bogdan = rated("here_ana", 1600), rated("gone_bogdan", 1500)
    tournament = arena(name="Absent arena")
    Player.objects.create(tournament=tournament, user=ana)
    Player.objects.create(tournament=tournament, user=bogdan, paused=True, paused_as_absent=True)
    url = f"{site.url}/tournaments/{tournament.pk}/"
    shots = Path("/tmp/shots-sec-arena")
    shots.mkdir(exist_ok=True)
    texts = {"en": "You were paused", "ru": "Вы на паузе"}
    pages = []
    for size, width in ((PHONE, 390), (DESKTOP, 1280)):
        for language, text in texts.items():
            page = page_for(browser, site, client.__class__, bogdan, size, language=language)
            page.goto(url)  # as served, then the socket's opening standings: both say so
            expect(page.locator("#paused-as-absent")).to_contain_text(text)
            expect(page.locator("#resume")).to_be_visible()
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=shots / f"absent-{width}-{language}.png", full_page=True)
            pages.append(page)
    pages[0].locator("#resume").click()
    pages[0].wait_for_url(re.compile(r"/matches/\d+/$"), timeout=30_000)
    back = Player.objects.get(user=bogdan)
    assert not back.paused and not back.paused_as_absent and back.playing_id is not None
    for page in pages:
        page.context.close()


def test_the_list_page_and_the_form_on_a_phone(browser, site, client):
    host = rated("host", 1500)
    page = page_for(browser, site, client.__class__, host, PHONE, language="ru")
    page.goto(f"{site.url}/tournaments/")
    page.locator("#id_name").fill("Вечерняя арена")
    page.locator("#id_private").check()
    page.locator("#tournament-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/\?key="), timeout=30_000)
    expect(page.locator("#share-link")).to_be_visible()
    expect(page.locator("#countdown")).to_contain_text("Начало через")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / "created-390-ru.png", full_page=True)
    page.context.close()
