"""Moderators' actions through the services: warn, mute, ban, lift, annul, close; the audit
trail; permissions; the Moderators group."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, transaction
from django.utils import timezone

from chat.services import chat_post
from games import services
from games.models import Match
from games.services import CommandError
from moderation import services as moderation
from moderation.groups import MODERATOR_PERMISSIONS
from moderation.models import AuditEntry, Report, Sanction
from moderation.selectors import ban_in_force, chat_mute_in_force
from ratings.models import PeriodWins, Rating
from tests.factories import make_user
from tests.moderation.conftest import active_match, make_moderator

pytestmark = pytest.mark.django_db


def audit_actions() -> list[tuple[str, str | None]]:
    return [
        (entry.action, entry.target_user.username if entry.target_user else None)
        for entry in AuditEntry.objects.order_by("id")
    ]


def test_a_ban_ends_active_matches_as_rated_losses_and_blocks_play(fixed_dice, moderator):
    banned, opponent = make_user("cheater"), make_user("honest")
    match = active_match(fixed_dice, banned, opponent, turn_seconds=60, rated=True)
    challenge = services.match_create(creator=banned, private=True)
    until = timezone.now() + timedelta(days=7)
    moderation.user_ban(moderator=moderator, user=banned, reason="engine use", ends_at=until)
    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner_id) == ("finished", "banned", opponent.pk)
    assert Rating.objects.get(user=opponent).wins == 1  # rated as the match was
    assert Rating.objects.get(user=banned).matches == 1
    assert Match.objects.get(pk=challenge.pk).status == "cancelled"
    assert ban_in_force(banned.pk).ends_at == until
    # Cannot play, accept or chat.
    with pytest.raises(CommandError) as refused:
        services.match_create(creator=banned)
    assert refused.value.code == "banned"
    open_one = services.match_create(creator=make_user("someone"))
    with pytest.raises(CommandError):
        services.match_accept(user=banned, match_id=open_one.pk)
    with pytest.raises(CommandError) as refused:
        chat_post(user=banned, match_id=match.pk, text="hello")
    assert refused.value.code == "banned"
    assert audit_actions() == [("ban", "cheater")]


def test_a_permanent_ban_and_lifting_it(moderator):
    user = make_user("forever")
    sanction = moderation.user_ban(moderator=moderator, user=user, reason="spam bot")
    assert sanction.ends_at is None and ban_in_force(user.pk) is not None
    moderation.sanction_lift(moderator=moderator, sanction_id=sanction.pk, reason="appeal won")
    assert ban_in_force(user.pk) is None
    services.match_create(creator=user)  # may play again
    with pytest.raises(CommandError) as refused:  # lifting twice
        moderation.sanction_lift(moderator=moderator, sanction_id=sanction.pk, reason="again")
    assert refused.value.code == "not_in_force"
    assert audit_actions() == [("ban", "forever"), ("lift", "forever")]


def test_a_chat_mute_needs_an_end_and_can_be_lifted(fixed_dice, moderator):
    user, other = make_user("loud"), make_user("quiet")
    match = active_match(fixed_dice, user, other)
    with pytest.raises(CommandError):
        moderation.user_chat_mute(moderator=moderator, user=user, reason="abuse", ends_at=None)
    with pytest.raises(CommandError):  # an end in the past
        moderation.user_chat_mute(moderator=moderator, user=user, reason="abuse",
                                  ends_at=timezone.now() - timedelta(hours=1))  # fmt: skip
    mute = moderation.user_chat_mute(moderator=moderator, user=user, reason="abuse",
                                     ends_at=timezone.now() + timedelta(hours=1))  # fmt: skip
    with pytest.raises(CommandError) as refused:
        chat_post(user=user, match_id=match.pk, text="!!!")
    assert refused.value.code == "muted"
    services.match_create(creator=user, private=True)  # a mute does not stop play
    moderation.sanction_lift(moderator=moderator, sanction_id=mute.pk, reason="calmed down")
    assert chat_mute_in_force(user.pk) is None
    chat_post(user=user, match_id=match.pk, text="sorry")


def test_a_warning_is_shown_on_the_next_page_once(
    client, moderator, django_capture_on_commit_callbacks
):
    user = make_user("warned")
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        moderation.user_warn(moderator=moderator, user=user, reason="Be <b>kind</b> in chat")
    page = client.get("/rules/")
    assert "Be &lt;b&gt;kind&lt;/b&gt; in chat" in page.content.decode()
    assert Sanction.objects.get(user=user).seen_at is not None
    assert "kind</b>" not in client.get("/rules/").content.decode()
    assert "kind" not in client.get("/rules/").content.decode().split("site-main")[0]


def test_a_warning_whose_flag_was_lost_shows_after_the_next_login(client, moderator):
    from django.core.cache import cache

    from moderation.warning_flags import warning_flag_key

    user = make_user("warned_again")
    moderation.user_warn(moderator=moderator, user=user, reason="Stop stalling")
    cache.delete(warning_flag_key(user.pk))  # as if Redis had been emptied
    client.force_login(user)  # the login raises the flag from the database
    assert "Stop stalling" in client.get("/rules/").content.decode()


def test_annul_reverts_ratings_and_win_counts_and_keeps_the_match(
    fixed_dice, moderator, client, django_capture_on_commit_callbacks
):
    winner, loser = make_user("w_annul"), make_user("l_annul")
    match = active_match(fixed_dice, winner, loser, turn_seconds=60, rated=True)
    services.match_resign(user=loser, match_id=match.pk)
    assert Rating.objects.get(user=winner).wins == 1
    assert PeriodWins.objects.filter(user=winner, wins=1).count() == 2  # week and month
    # The profile's record counts the win (and keeps its count in the cache, ratings/records.py).
    assert '<dd id="matches-won">1</dd>' in client.get(f"/@/{winner.username}").content.decode()
    report = moderation.report_create(reporter=loser, target=winner, reason="cheating",
                                      match_id=match.pk)  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        moderation.match_annul(moderator=moderator, match_id=match.pk, reason="collusion",
                               report_id=report.pk)  # fmt: skip
    match.refresh_from_db()
    assert match.status == "finished" and match.annulled_at is not None
    for player in (winner, loser):
        rating = Rating.objects.get(user=player)
        assert (rating.rating, rating.wins, rating.matches, rating.experience) == (1500, 0, 0, 0)
    assert not PeriodWins.objects.filter(user=winner, wins__gt=0).exists()
    report.refresh_from_db()
    assert report.status == "closed" and "collusion" in report.resolution
    with pytest.raises(CommandError) as refused:
        moderation.match_annul(moderator=moderator, match_id=match.pk, reason="again")
    assert refused.value.code == "already_annulled"
    assert [entry.action for entry in AuditEntry.objects.order_by("id")] == [
        "annul", "close_report",
    ]  # fmt: skip
    # The history still lists it, marked.
    profile = client.get(f"/@/{winner.username}").content.decode()
    assert f'data-match-id="{match.pk}"' in profile and 'class="annulled"' in profile
    assert '<dd id="matches-won">0</dd>' in profile  # out of the record too


def test_an_active_match_cannot_be_annulled(fixed_dice, moderator):
    match = active_match(fixed_dice, make_user("a1"), make_user("a2"))
    with pytest.raises(CommandError) as refused:
        moderation.match_annul(moderator=moderator, match_id=match.pk, reason="x")
    assert refused.value.code == "match_not_finished"
    assert AuditEntry.objects.count() == 0


def test_closing_a_report_and_sanctions_that_close_theirs(moderator):
    reporter, target = make_user("rp"), make_user("tg")
    report = moderation.report_create(reporter=reporter, target=target, reason="other")
    with pytest.raises(CommandError):  # a reason is required
        moderation.report_close(moderator=moderator, report_id=report.pk, resolution="  ")
    moderation.report_close(moderator=moderator, report_id=report.pk, resolution="no evidence")
    report.refresh_from_db()
    assert (report.status, report.resolution, report.closed_by) == (
        "closed", "no evidence", moderator,
    )  # fmt: skip
    with pytest.raises(CommandError):
        moderation.report_close(moderator=moderator, report_id=report.pk, resolution="again")
    second = moderation.report_create(reporter=reporter, target=target, reason="chat_abuse")
    moderation.user_warn(moderator=moderator, user=target, reason="mind your words",
                         report_id=second.pk)  # fmt: skip
    assert Report.objects.get(pk=second.pk).status == "closed"
    assert [action for action, _ in audit_actions()] == ["close_report", "warn", "close_report"]


def test_a_moderator_without_a_permission_is_refused():
    staff = make_user("plain_staff", is_staff=True)  # not in the Moderators group
    target = make_user("target_np")
    for call in (
        lambda: moderation.user_warn(moderator=staff, user=target, reason="x"),
        lambda: moderation.user_ban(moderator=staff, user=target, reason="x"),
        lambda: moderation.user_chat_mute(moderator=staff, user=target, reason="x",
                                          ends_at=timezone.now() + timedelta(hours=1)),
    ):  # fmt: skip
        with pytest.raises(PermissionDenied):
            call()
    assert not Sanction.objects.exists() and not AuditEntry.objects.exists()
    moderator = make_moderator("mod_no_ban")
    group = Group.objects.create(name="Warners only")
    group.permissions.set(Group.objects.get(name="Moderators").permissions.filter(
        codename="warn_user"))  # fmt: skip
    moderator.groups.set([group])
    moderation.user_warn(moderator=moderator, user=target, reason="ok")
    with pytest.raises(PermissionDenied):
        moderation.user_ban(moderator=moderator, user=target, reason="x")
    with pytest.raises(PermissionDenied):  # only a superuser bans staff
        moderation.user_ban(moderator=make_moderator("m2"), user=make_moderator("m3"), reason="x")


def test_the_audit_trail_is_append_only(moderator):
    moderation.user_warn(moderator=moderator, user=make_user("aud"), reason="x")
    entry = AuditEntry.objects.get()
    for change in (
        lambda: AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten"),
        lambda: AuditEntry.objects.filter(pk=entry.pk).delete(),
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            change()
    assert AuditEntry.objects.get().reason == "x"


def test_the_moderators_group_holds_exactly_what_moderation_needs():
    codenames = set(
        Group.objects.get(name="Moderators").permissions.values_list(
            "content_type__app_label", "codename"
        )
    )
    assert codenames == {(app, codename) for app, _, codename, _ in MODERATOR_PERMISSIONS}
    assert {codename for _, _, codename, _ in MODERATOR_PERMISSIONS} >= {
        "warn_user", "mute_user", "ban_user", "lift_sanction", "annul_match", "close_report",
    }  # fmt: skip
    assert not any(
        codename.split("_")[0] in ("add", "change", "delete")
        for _, _, codename, _ in MODERATOR_PERMISSIONS
    )
    moderator = make_moderator("checker")
    for forbidden in ("accounts.change_user", "ratings.change_rating", "games.change_game",
                      "games.change_match", "moderation.change_auditentry"):  # fmt: skip
        assert not moderator.has_perm(forbidden)
