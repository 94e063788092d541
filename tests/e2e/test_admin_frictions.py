"""A staff member in a real browser: signs in with password and code, makes recovery codes at
once (no second password), goes on from the codes to the admin, whose index names its sections
apart. Phone (390x844) and desktop (1280x800), English and Russian.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import SIZES, shots_folder, visitor_context
from tests.factories import PASSWORD, enable_totp, make_user
from tests.moderation.test_staff_two_factors import totp_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"generate": "Generate", "admin": "Codes kept: open the admin",
           "players": "Players and staff", "emails": "Email addresses"},
    "ru": {"generate": "Создать", "admin": "Коды сохранены: открыть админку",
           "players": "Игроки и персонал", "emails": "Адреса почты"},
}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_staff_sign_in_make_codes_and_go_on_to_the_admin(browser, site, tmp_path, size, language):
    words = WORDS[language]
    staff = make_user(f"root_{size}_{language}", is_staff=True, is_superuser=True)
    secret = enable_totp(staff)
    context = visitor_context(browser, site, size=size, language=language)
    page = context.new_page()
    page.goto(f"{site.url}/accounts/login/?next=/accounts/2fa/recovery-codes/generate/")
    page.locator("input[name=login]").fill(staff.username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/accounts/2fa/authenticate/"))
    page.locator("input[name=code]").fill(totp_code(secret))
    page.locator("main form button[type=submit]").first.click()
    # Straight to the codes' page: no password asked again (accounts/adapters.py).
    page.wait_for_url(re.compile(r"/accounts/2fa/recovery-codes/generate/"))
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/accounts/2fa/recovery-codes/$"))
    onward = page.locator("#recovery-codes-admin")
    expect(onward).to_have_text(words["admin"])
    page.screenshot(path=shots_folder(tmp_path) / f"recovery-codes-{size}-{language}.png",
                    full_page=True)  # fmt: skip
    onward.click()
    page.wait_for_url(re.compile(r"/admin/$"))
    sections = page.locator("caption a.section")
    expect(sections.filter(has_text=words["players"])).to_have_count(1)
    expect(sections.filter(has_text=words["emails"])).to_have_count(1)
    names = sections.all_inner_texts()
    assert len(names) == len(set(names)), names
    page.screenshot(path=shots_folder(tmp_path) / f"admin-index-{size}-{language}.png",
                    full_page=True)  # fmt: skip
    context.close()
