"""A moderator under a sanction loses moderation (and the admin while banned); nobody moderates
their own case: their own sanction, a report on them, a match they played; and moderators cannot
sanction one another (only a superuser sanctions staff)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from games import services
from games.services import CommandError
from moderation import services as moderation
from moderation.models import AuditEntry, Report, Sanction
from moderation.selectors import ban_in_force, chat_mute_in_force
from tests.factories import enable_totp, make_user
from tests.moderation.conftest import active_match, make_moderator
from tests.moderation.test_admin import run_action

pytestmark = pytest.mark.django_db

SOON = timedelta(days=1)


@pytest.fixture
def superuser(db):
    root = make_user("root", is_staff=True, is_superuser=True)
    enable_totp(root)
    return root


def every_action(moderator, *, target, sanction, report, match):
    """Each moderation service, called by `moderator` on rows that are fine to act on."""
    return {
        "warn": lambda: moderation.user_warn(moderator=moderator, user=target, reason="x"),
        "mute": lambda: moderation.user_chat_mute(
            moderator=moderator, user=target, reason="x", ends_at=timezone.now() + SOON),
        "ban": lambda: moderation.user_ban(moderator=moderator, user=target, reason="x"),
        "lift": lambda: moderation.sanction_lift(
            moderator=moderator, sanction_id=sanction.pk, reason="x"),
        "annul": lambda: moderation.match_annul(moderator=moderator, match_id=match.pk,
                                                reason="x"),
        "close": lambda: moderation.report_close(moderator=moderator, report_id=report.pk,
                                                 resolution="x"),
    }  # fmt: skip


def sanction_oneself(who, action: str) -> None:
    ends_at = timezone.now() + SOON
    if action == "warn":
        moderation.user_warn(moderator=who, user=who, reason="x")
    elif action == "mute":
        moderation.user_chat_mute(moderator=who, user=who, reason="x", ends_at=ends_at)
    else:
        moderation.user_ban(moderator=who, user=who, reason="x", ends_at=ends_at)


def finished_match(fixed_dice, first, second):
    match = active_match(fixed_dice, first, second)
    services.match_resign(user=second, match_id=match.pk)
    return match


@pytest.mark.parametrize("kind", ["ban", "chat_mute"])
def test_a_sanctioned_moderator_loses_every_action(fixed_dice, superuser, kind):
    rogue = make_moderator("rogue")
    target = make_user("victim")
    other_mute = moderation.user_chat_mute(moderator=superuser, user=make_user("muted"),
                                           reason="x", ends_at=timezone.now() + SOON)  # fmt: skip
    report = moderation.report_create(reporter=make_user("rep"), target=target, reason="other")
    match = finished_match(fixed_dice, make_user("p1"), make_user("p2"))
    if kind == "ban":
        moderation.user_ban(moderator=superuser, user=rogue, reason="abuse of power")
    else:
        moderation.user_chat_mute(moderator=superuser, user=rogue, reason="insults",
                                  ends_at=timezone.now() + SOON)  # fmt: skip
    before = (Sanction.objects.count(), AuditEntry.objects.count())
    actions = every_action(rogue, target=target, sanction=other_mute, report=report, match=match)
    for name, call in actions.items():
        with pytest.raises(CommandError) as refused:
            call()
        assert refused.value.code == "sanctioned", name
    assert (Sanction.objects.count(), AuditEntry.objects.count()) == before
    assert chat_mute_in_force(other_mute.user_id) is not None
    assert Report.objects.get(pk=report.pk).status == "open"
    # Once a superuser lifts it, the moderator acts again.
    own = Sanction.objects.get(user=rogue)
    moderation.sanction_lift(moderator=superuser, sanction_id=own.pk, reason="appeal")
    actions["warn"]()


def test_a_banned_moderator_cannot_lift_their_own_ban_nor_open_the_admin(client, superuser):
    rogue = make_moderator("banned_mod")
    ban = moderation.user_ban(moderator=superuser, user=rogue, reason="leaked reports")
    with pytest.raises(CommandError):
        moderation.sanction_lift(moderator=rogue, sanction_id=ban.pk, reason="mine")
    client.force_login(rogue)
    for path in ("/admin/", "/admin/moderation/sanction/", "/admin/accounts/user/"):
        assert client.get(path).status_code == 403, path
    response = run_action(client, "/admin/moderation/sanction/", "lift", [ban.pk], reason="x")
    assert response.status_code == 403
    assert ban_in_force(rogue.pk) is not None
    assert list(AuditEntry.objects.values_list("action", flat=True)) == ["ban"]


def test_a_muted_moderator_keeps_reading_the_admin_but_is_offered_no_action(client, superuser):
    rogue = make_moderator("muted_mod")
    target = make_user("spared")
    moderation.user_chat_mute(moderator=superuser, user=rogue, reason="x",
                              ends_at=timezone.now() + SOON)  # fmt: skip
    client.force_login(rogue)
    page = client.get("/admin/accounts/user/")
    assert page.status_code == 200 and b'value="ban"' not in page.content
    run_action(client, "/admin/accounts/user/", "ban", [target.pk], reason="x", duration="1d")
    assert ban_in_force(target.pk) is None


def test_nobody_moderates_their_own_case(fixed_dice, superuser):
    moderator = make_moderator("self_mod")
    for who in (moderator, superuser):
        for action in ("warn", "mute", "ban"):
            with pytest.raises(CommandError) as refused:
                sanction_oneself(who, action)
            assert refused.value.code == "own_case"
    # A report on oneself, a match one played (annulling gives back a lost match's points).
    report = moderation.report_create(reporter=make_user("accuser"), target=moderator,
                                      reason="cheating")  # fmt: skip
    lost = finished_match(fixed_dice, make_user("winner"), moderator)
    for call in (
        lambda: moderation.report_close(moderator=moderator, report_id=report.pk,
                                        resolution="nothing here"),
        lambda: moderation.match_annul(moderator=moderator, match_id=lost.pk, reason="lag"),
    ):  # fmt: skip
        with pytest.raises(CommandError) as refused:
            call()
        assert refused.value.code == "own_case"
    assert Report.objects.get(pk=report.pk).status == "open"
    assert not AuditEntry.objects.exists() and not Sanction.objects.exists()


def test_a_report_on_oneself_cannot_be_closed_through_someone_elses_sanction(fixed_dice, superuser):
    moderator = make_moderator("sly")
    report = moderation.report_create(reporter=make_user("acc"), target=moderator,
                                      reason="other")  # fmt: skip
    with pytest.raises(CommandError) as refused:
        moderation.user_warn(moderator=moderator, user=make_user("scapegoat"), reason="x",
                             report_id=report.pk)  # fmt: skip
    assert refused.value.code == "bad_field"
    other_match = finished_match(fixed_dice, make_user("o1"), make_user("o2"))
    with pytest.raises(CommandError):  # the report is about no match at all
        moderation.match_annul(moderator=moderator, match_id=other_match.pk, reason="x",
                               report_id=report.pk)  # fmt: skip
    assert Report.objects.get(pk=report.pk).status == "open"
    assert not AuditEntry.objects.exists()


def test_moderators_cannot_sanction_or_unsanction_one_another(superuser):
    moderator, colleague = make_moderator("m_a"), make_moderator("m_b")
    with pytest.raises(PermissionDenied):  # a mute would take the colleague's actions away
        moderation.user_chat_mute(moderator=moderator, user=colleague, reason="x",
                                  ends_at=timezone.now() + SOON)  # fmt: skip
    ban = moderation.user_ban(moderator=superuser, user=colleague, reason="x")
    with pytest.raises(PermissionDenied):  # nor lift a colleague's ban
        moderation.sanction_lift(moderator=moderator, sanction_id=ban.pk, reason="friend")
    assert ban_in_force(colleague.pk) is not None
    moderation.user_warn(moderator=moderator, user=colleague, reason="a word")  # warnings: yes
