"""Signing up in a real browser, phone (390x844) and desktop (1280x800), English and Russian: a
visitor's first click is a game against the computer; "Sign up to keep your games" from the
match page keeps the player signed in, as the same account, back on that match; the email's
link (made here as allauth makes it) confirms at one click and lands back there too.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress, EmailConfirmationHMAC

from accounts.models import User
from games.models import Match
from tests.e2e.pages import SIZES, shots_folder, visitor_context
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_guest_signs_up_and_stays_at_the_table(browser, site, tmp_path, size, language):
    context = visitor_context(browser, site, size=size, language=language)
    page = context.new_page()
    page.goto(site.url + "/")
    page.locator("#play-computer").click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match_url = page.url
    match = Match.objects.get(pk=int(match_url.rstrip("/").rsplit("/", 1)[1]))
    guest = match.creator
    if size == "phone":
        page.locator("label.nav-toggle-label").click()
    page.locator("#guest-signup").click()
    page.wait_for_url(re.compile(r"/accounts/signup/\?next="))
    name = f"kept_{size}_{language}"
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.screenshot(path=shots_folder(tmp_path) / f"signup-{size}-{language}.png", full_page=True)
    page.locator("form[action*=signup] button[type=submit]").click()
    page.wait_for_url(match_url)
    user = User.objects.get(username=name)
    assert user.pk == guest.pk and not user.is_guest
    page.wait_for_selector("#match-app[data-status]")
    assert page.locator("#guest-signup").count() == 0, "signed in as the new account"
    page.screenshot(path=shots_folder(tmp_path) / f"after-signup-{size}-{language}.png")

    address = EmailAddress.objects.get(email=f"{name}@example.com")
    assert not address.verified
    key = EmailConfirmationHMAC(address).key
    page.goto(f"{site.url}/accounts/confirm-email/{key}/")
    page.wait_for_url(match_url)  # one click: no second Confirm page, back at the table
    address.refresh_from_db()
    assert address.verified
    context.close()
