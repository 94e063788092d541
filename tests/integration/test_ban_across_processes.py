"""A ban during a live match, with the two players on two Daphne processes: the
banned player's socket on the other process is closed at once (4003, within a second), the
match ends as their loss (reason `banned`), and the opponent's page says why."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import Match
from moderation import services as moderation
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread
from tests.factories import make_user
from tests.moderation.conftest import make_moderator

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLOSE_WITHIN_SECONDS = 1.0  # the bound, from the ban's commit to the close


@pytest.fixture
def two_sites(site, sites):
    """The session's site and a second process: the ban is committed through one process and
    must close the socket held by the other."""
    return site, sites.another()


def test_a_ban_closes_the_socket_on_another_process_and_the_opponent_sees_why(
    two_sites, browser, client
):
    first, second = two_sites
    banned, opponent = make_user("banned_live"), make_user("opponent_live")
    moderator = make_moderator("live_mod")
    match = off_the_browser_thread(
        services.match_create, creator=banned, turn_seconds=120, rated=True
    )
    off_the_browser_thread(services.match_accept, user=opponent, match_id=match.pk)

    banned_page = logged_in_page(browser, first, client.__class__, banned)
    opponent_page = logged_in_page(browser, second, client.__class__, opponent)
    for page, site in ((banned_page, first), (opponent_page, second)):
        page.goto(f"{site.url}/matches/{match.pk}/")
        page.wait_for_function(
            "() => window.matchApp && window.matchApp.session.connection === 'open'"
        )

    off_the_browser_thread(moderation.user_ban, moderator=moderator, user=banned, reason="cheating")
    committed = time.monotonic()
    banned_page.wait_for_function(
        "() => window.matchApp.session.connection === 'banned'", timeout=10_000
    )
    closed_after = time.monotonic() - committed
    assert closed_after < CLOSE_WITHIN_SECONDS, f"closed {closed_after:.2f} s after the ban"
    assert "banned" in banned_page.locator("#status").inner_text().lower()

    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner_id) == ("finished", "banned", opponent.pk)
    assert Match.objects.filter(pk=match.pk, rating_changes__isnull=False).exists()  # rated
    # The opponent's page (on the other process) shows the reason.
    opponent_page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('banned by a moderator')",
        timeout=10_000,
    )
    # The opponent's socket stays open: only the banned player's were closed.
    assert opponent_page.evaluate("window.matchApp.session.connection") == "open"
