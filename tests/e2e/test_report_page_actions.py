"""A moderator acts on a report from its own admin page in a real browser: chooses an action,
gives the reason, runs it, and is back on the report, closed by the warning. Phone (390x844) and
desktop (1280x800), English and Russian.

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from moderation import services as moderation
from moderation.models import AuditEntry, Report
from tests.e2e.pages import SIZES, shots_folder, signed_in_context
from tests.factories import make_user
from tests.moderation.conftest import make_moderator

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DONE = {"en": "Done for 1 row(s).", "ru": "Выполнено для строк: 1."}


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_moderator_warns_from_the_reports_page(browser, site, client, tmp_path, size, language):
    moderator = make_moderator(f"mod_{size}_{language}")
    report = moderation.report_create(reporter=make_user(f"rep_{size}_{language}"),
                                      target=make_user(f"tgt_{size}_{language}"),
                                      reason="chat_abuse")  # fmt: skip
    context = signed_in_context(browser, site, client.__class__, moderator, size=size,
                                language=language)  # fmt: skip
    page = context.new_page()
    page.goto(f"{site.url}/admin/moderation/report/{report.pk}/change/")
    form = page.locator("#report-actions-fields")
    form.locator("select[name=action]").select_option("warn")
    form.locator("input[name=reason]").fill("insults in chat")
    page.screenshot(path=shots_folder(tmp_path) / f"report-page-actions-{size}-{language}.png",
                    full_page=True)  # fmt: skip
    form.locator("#report-act-run").click()
    expect(page.locator(".messagelist")).to_contain_text(DONE[language])
    assert page.url.endswith(f"/admin/moderation/report/{report.pk}/change/")
    assert Report.objects.get(pk=report.pk).status == "closed"
    assert list(AuditEntry.objects.values_list("action", flat=True).order_by("id")) == [
        "warn", "close_report",
    ]  # fmt: skip
    page.screenshot(path=shots_folder(tmp_path) / f"report-page-done-{size}-{language}.png",
                    full_page=True)  # fmt: skip
    context.close()
