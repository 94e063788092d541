"""The Content-Security-Policy (config/content_security_policy.py) refuses nothing the site itself
does: Chromium opens the main pages signed out, signed in (a live match with its socket, an
invite link, a replay with its analysis panel, a tournament, the profile and the settings),
allauth's pages and the admin's as staff with two factors, and fails on any violation (the
console's "Refused to …" or a `securitypolicyviolation` event: tests/e2e/csp.py). The two
handlers that were inline (the language selector, the invite link's field) still work, and an
inline script is refused on every page kind, so the policy is there. The same check runs over
HTTPS with production settings in tests/integration/test_production_csp.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from tests.e2e.csp import Violations
from tests.e2e.pages import signed_in_context, visitor_context
from tests.factories import PASSWORD, enable_totp, make_user
from tests.moderation.test_staff_two_factors import totp_code
from tests.tournaments.conftest import arena

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIGNED_OUT = ["/", "/play/", "/watch/", "/leaderboard/", "/tournaments/", "/rules/", "/fairness/",
              "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]  # fmt: skip


def visit(page, url: str, violations: Violations, *, ready: str | None = None) -> None:
    """Open `url`, wait for its scripts (and `ready`, a script's sign that it ran), and fail on
    any violation of the policy."""
    response = page.goto(url)
    assert response is not None and response.status == 200, (url, response and response.status)
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy, (url, policy)
    if ready:
        page.wait_for_function(ready)
    page.wait_for_load_state("networkidle")
    assert violations.of(page) == [], url


def test_the_pages_signed_out_break_no_rule(browser, site):
    context = visitor_context(browser, site, size="desktop", language="en")
    violations = Violations()
    violations.watch(context)
    page = context.new_page()
    for path in SIGNED_OUT:
        visit(page, site.url + path, violations)
    violations.prove_live(page)
    # The language selector sends its form from the site's module, not an inline handler.
    visit(page, f"{site.url}/rules/", violations)
    with page.expect_navigation():
        page.locator("#language-select").select_option("ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert violations.of(page) == []
    context.close()


def test_the_pages_signed_in_break_no_rule(browser, site, client, tmp_path):
    from django.test import Client

    player, opponent = make_user("csp_player"), make_user("csp_opponent")
    inviter = make_user("csp_inviter")
    done = services.match_create(creator=opponent, turn_seconds=120, rated=False)
    services.match_accept(user=player, match_id=done.pk)
    services.match_resign(user=player, match_id=done.pk)
    live = services.match_create(creator=player, turn_seconds=120, rated=False)
    services.match_accept(user=opponent, match_id=live.pk)
    invite = services.match_create(creator=inviter, turn_seconds=60, rated=False, private=True)
    tournament = arena(name="Policy arena")
    context = signed_in_context(browser, site, Client, player, size="desktop", language="en")
    violations = Violations()
    violations.watch(context)
    page = context.new_page()
    replay_ready = "() => document.querySelector('#replay-app').dataset.ready"
    pages = [
        ("/", None), ("/play/", None), ("/watch/", None), ("/leaderboard/", None),
        (f"/@/{player.username}", None), ("/settings/", None), ("/accounts/email/", None),
        ("/accounts/password/change/", None), ("/accounts/2fa/", None),
        (f"/tournaments/{tournament.pk}/", None),
        (f"/matches/{live.pk}/", "() => document.querySelector('#match-app').dataset.version"),
        (f"/matches/{done.pk}/replay/", replay_ready),
    ]  # fmt: skip
    for path, ready in pages:
        visit(page, site.url + path, violations, ready=ready)
    violations.prove_live(page)
    # The invite link's field selects itself from the site's module, not an inline handler.
    inviter_context = signed_in_context(
        browser, site, Client, inviter, size="desktop", language="en"
    )
    violations.watch(inviter_context)
    creator_page = inviter_context.new_page()
    visit(creator_page, f"{site.url}/matches/{invite.pk}/", violations)
    field = creator_page.locator("#invite-url")
    field.focus()
    selected = "el => el.selectionStart === 0 && el.selectionEnd === el.value.length"
    assert field.evaluate(selected), "the invite link was not selected on focus"
    assert violations.of(creator_page) == []
    context.close()
    inviter_context.close()


def test_staff_allauth_and_admin_pages_break_no_rule(browser, site):
    staff = make_user("csp_staff", is_staff=True, is_superuser=True)
    secret = enable_totp(staff)
    context = visitor_context(browser, site, size="desktop", language="en")
    violations = Violations()
    violations.watch(context)
    page = context.new_page()
    visit(page, f"{site.url}/accounts/login/?next=/admin/", violations)
    page.locator("input[name=login]").fill(staff.username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/accounts/2fa/authenticate/"))
    assert violations.of(page) == []
    page.locator("input[name=code]").fill(totp_code(secret))
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/admin/$"))
    assert violations.of(page) == []
    admin_pages = [
        "/admin/", "/admin/accounts/user/", f"/admin/accounts/user/{staff.pk}/change/",
        "/admin/games/match/", "/admin/moderation/report/", "/admin/moderation/auditentry/",
        "/admin/tournaments/tournament/", "/admin/tournaments/tournament/add/",
        "/accounts/2fa/", "/accounts/2fa/recovery-codes/generate/",
    ]  # fmt: skip
    for path in admin_pages:
        visit(page, site.url + path, violations)
    violations.prove_live(page)
    # The changelist's actions (Django's admin scripts) still run: select all, pick an action.
    visit(page, f"{site.url}/admin/accounts/user/", violations)
    page.locator("#action-toggle").check()
    expect(page.locator(".action-counter")).to_contain_text("1 of 1")
    assert violations.of(page) == []
    context.close()
