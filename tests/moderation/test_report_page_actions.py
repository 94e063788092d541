"""A report's own admin page offers the report list's actions (warn, mute, ban, annul, close),
run by the same action functions: the moderator's permissions, the services, their audit rows
and their refusals (no self-moderation, a closed report) are the list's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from games import services as games
from moderation import services as moderation
from moderation.models import AuditEntry, Report, Sanction
from tests.factories import enable_totp, make_user
from tests.moderation.conftest import active_match, make_moderator

pytestmark = pytest.mark.django_db


def page_url(report) -> str:
    return f"/admin/moderation/report/{report.pk}/change/"


def act(client, report, action, **fields):
    return client.post(f"/admin/moderation/report/{report.pk}/act/", {"action": action, **fields})


def test_the_page_offers_the_actions_and_a_mute_closes_the_report(client):
    moderator = make_moderator("page_mod")
    report = moderation.report_create(
        reporter=make_user("pg_rep"), target=make_user("pg_tgt"), reason="chat_abuse"
    )
    client.force_login(moderator)
    page = client.get(page_url(report)).content.decode()
    assert 'id="report-actions"' in page
    for action in ("close", "warn", "mute", "ban", "annul"):
        assert f'value="{action}"' in page
    response = act(client, report, "mute", reason="insults", duration="1d")
    assert response.status_code == 302 and response["Location"] == page_url(report)
    mute = Sanction.objects.get(user=report.target)
    assert (mute.kind, mute.reason, mute.report_id) == ("chat_mute", "insults", report.pk)
    assert Report.objects.get(pk=report.pk).status == "closed"
    assert [entry.action for entry in AuditEntry.objects.order_by("id")] == [
        "chat_mute", "close_report",
    ]  # fmt: skip


def test_warn_and_close_from_the_page(client):
    moderator = make_moderator("page_mod2")
    report = moderation.report_create(
        reporter=make_user("wc_rep"), target=make_user("wc_tgt"), reason="other"
    )
    client.force_login(moderator)
    act(client, report, "close", reason="nothing found")
    assert Report.objects.get(pk=report.pk).resolution == "nothing found"
    # Closing a closed report is refused, as in the list, and writes nothing.
    before = AuditEntry.objects.count()
    followed = client.post(f"/admin/moderation/report/{report.pk}/act/",
                           {"action": "close", "reason": "again"}, follow=True)  # fmt: skip
    assert "This report is closed already." in followed.content.decode()
    assert AuditEntry.objects.count() == before


def test_annul_from_the_page(client, fixed_dice):
    reporter, target = make_user("an_rep"), make_user("an_tgt")
    match = active_match(fixed_dice, reporter, target)
    games.match_resign(user=target, match_id=match.pk)
    report = moderation.report_create(reporter=reporter, target=target, reason="cheating",
                                      match_id=match.pk)  # fmt: skip
    client.force_login(make_moderator("page_mod3"))
    act(client, report, "annul", reason="collusion")
    match.refresh_from_db()
    assert match.annulled_at is not None
    assert AuditEntry.objects.filter(action="annul", target_match=match).exists()


def test_a_moderator_without_the_permission_gets_no_action_and_changes_nothing(client):
    staff = make_user("reader", is_staff=True)
    group = Group.objects.create(name="Report readers only")
    group.permissions.set(
        Group.objects.get(name="Moderators").permissions.filter(codename__in=["view_report"])
    )
    staff.groups.add(group)
    enable_totp(staff)
    report = moderation.report_create(
        reporter=make_user("np_rep"), target=make_user("np_tgt"), reason="other"
    )
    client.force_login(staff)
    page = client.get(page_url(report)).content.decode()
    assert 'id="report-actions"' not in page
    for action in ("ban", "close", "no_such_action", ""):
        followed = act(client, report, action, reason="x", duration="1d")
        assert followed.status_code == 302
    assert not Sanction.objects.exists() and not AuditEntry.objects.exists()
    assert Report.objects.get(pk=report.pk).status == "open"


def test_nobody_moderates_their_own_case_from_the_page(client):
    moderator = make_moderator("self_mod")
    report = moderation.report_create(reporter=make_user("sm_rep"), target=moderator,
                                      reason="other")  # fmt: skip
    client.force_login(moderator)
    for action in ("warn", "close"):
        url = f"/admin/moderation/report/{report.pk}/act/"
        followed = client.post(url, {"action": action, "reason": "mine"}, follow=True)
        assert "You cannot moderate your own case." in followed.content.decode()
    assert not Sanction.objects.exists() and not AuditEntry.objects.exists()


def test_the_act_url_refuses_get_and_signed_out_visitors(client):
    report = moderation.report_create(
        reporter=make_user("g_rep"), target=make_user("g_tgt"), reason="other"
    )
    assert act(client, report, "close", reason="x").status_code == 302  # to the login
    client.force_login(make_moderator("get_mod"))
    assert client.get(f"/admin/moderation/report/{report.pk}/act/").status_code == 405
    assert Report.objects.get(pk=report.pk).status == "open"
