"""The Content-Security-Policy with production settings (DEBUG=0, nginx with TLS, two Daphne:
the `production` topology of test_production.py): every page's header names the sockets'
`wss:` origin, and Chromium opens the main pages signed out and signed in, a live match with its
socket among them, without a violation (config/content_security_policy.py; tests/e2e/csp.py).
Run with the topology's other tests, on its worker (tests/markers.py)."""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.sync_api import expect

from bench.topology import SERVER_NAME
from tests.e2e.csp import Violations

pytestmark = pytest.mark.integration

MAIN_PAGES = ["/", "/play/", "/watch/", "/leaderboard/", "/tournaments/", "/rules/",
              "/fairness/", "/accounts/login/", "/accounts/signup/"]  # fmt: skip


def test_main_pages_over_https_break_no_rule(production, browser):
    origin = production.base_url
    setup = production.django_task("setup", {"matches": 1, "prefix": f"csp{secrets.token_hex(3)}",
                                             "auto_roll": False})  # fmt: skip
    match = setup["matches"][0]
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 800})
    violations = Violations()
    violations.watch(context)
    page = context.new_page()
    for path in MAIN_PAGES:
        response = page.goto(origin + path)
        assert response.status == 200, path
        policy = response.headers["content-security-policy"]
        assert f"connect-src 'self' wss://{SERVER_NAME}:{production.https_port}" in policy
        assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
        page.wait_for_load_state("networkidle")
        assert violations.of(page) == [], path
    violations.prove_live(page)
    context.add_cookies([{"name": "sessionid", "value": match["cookies"][0], "url": origin}])
    for path in ["/", "/play/", "/settings/", f"/matches/{match['id']}/"]:
        assert page.goto(origin + path).status == 200, path
        page.wait_for_load_state("networkidle")
        assert violations.of(page) == [], path
    # The match page's socket (wss:, the policy's connect-src) brought the match's state.
    expect(page.locator("#match-app")).to_have_attribute("data-version", re.compile(r"\d+"))
    assert violations.of(page) == []
    context.close()
