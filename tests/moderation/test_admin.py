"""Moderation in the Django admin: the queue, actions through services, read-only rows."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from chat.services import chat_post
from games.models import Game
from moderation import services as moderation
from moderation.models import AuditEntry, Report, Sanction
from tests.factories import enable_totp, make_user
from tests.moderation.conftest import active_match, make_moderator

pytestmark = pytest.mark.django_db


def run_action(client, url: str, action: str, ids: list[int], **fields):
    return client.post(url, {"action": action, "_selected_action": ids, "index": 0, **fields})


def test_the_report_queue_shows_open_reports_oldest_first_with_the_chat(client, fixed_dice):
    reporter, target = make_user("q_rep"), make_user("q_tgt")
    match = active_match(fixed_dice, reporter, target)
    chat_post(user=target, match_id=match.pk, text="<script>alert(1)</script>")
    first = moderation.report_create(reporter=reporter, target=target, reason="chat_abuse",
                                     match_id=match.pk)  # fmt: skip
    second = moderation.report_create(reporter=make_user("q_rep2"), target=target, reason="other")
    closed = moderation.report_create(reporter=make_user("q_rep3"), target=target, reason="other")
    moderator = make_moderator()
    moderation.report_close(moderator=moderator, report_id=closed.pk, resolution="done")
    client.force_login(moderator)
    page = client.get("/admin/moderation/report/").content.decode()
    rows = [page.index(f'value="{report.pk}"') for report in (first, second, closed)]
    assert rows == sorted(rows)  # open ones first, oldest first; closed after
    detail = client.get(f"/admin/moderation/report/{first.pk}/change/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in detail and "<script>alert(1)" not in detail


def test_actions_run_through_services_and_write_audit_rows(client, fixed_dice):
    moderator = make_moderator()
    reporter, target = make_user("a_rep"), make_user("a_tgt")
    report = moderation.report_create(reporter=reporter, target=target, reason="chat_abuse")
    client.force_login(moderator)
    response = run_action(client, "/admin/moderation/report/", "mute", [report.pk],
                          reason="insults", duration="1d")  # fmt: skip
    assert response.status_code == 302
    mute = Sanction.objects.get(user=target)
    assert (mute.kind, mute.reason, mute.report_id) == ("chat_mute", "insults", report.pk)
    assert Report.objects.get(pk=report.pk).status == "closed"
    run_action(client, "/admin/accounts/user/", "ban", [target.pk], reason="again",
               duration="permanent")  # fmt: skip
    assert Sanction.objects.get(user=target, kind="ban").ends_at is None
    run_action(client, "/admin/moderation/sanction/", "lift", [mute.pk], reason="early")
    assert Sanction.objects.get(pk=mute.pk).lifted_at is not None
    # An action without a reason is refused and changes nothing.
    run_action(client, "/admin/accounts/user/", "warn", [reporter.pk], reason="")
    assert not Sanction.objects.filter(user=reporter).exists()
    assert [entry.action for entry in AuditEntry.objects.order_by("id")] == [
        "chat_mute", "close_report", "ban", "lift",
    ]  # fmt: skip
    trail = client.get(f"/admin/moderation/auditentry/?moderator__id__exact={moderator.pk}")
    assert trail.status_code == 200 and b"insults" in trail.content
    audit = AuditEntry.objects.first()
    assert client.post(f"/admin/moderation/auditentry/{audit.pk}/change/", {}).status_code == 403
    assert client.post(f"/admin/moderation/auditentry/{audit.pk}/delete/", {}).status_code == 403


def test_an_admin_action_without_its_permission_is_refused(client):
    staff = make_user("limited", is_staff=True)
    group = Group.objects.create(name="Report readers")
    group.permissions.set(
        Group.objects.get(name="Moderators").permissions.filter(
            codename__in=["view_report", "view_user"]
        )
    )
    staff.groups.add(group)
    enable_totp(staff)
    target = make_user("np_target")
    client.force_login(staff)
    page = client.get("/admin/accounts/user/").content.decode()
    assert 'value="ban"' not in page
    run_action(client, "/admin/accounts/user/", "ban", [target.pk], reason="x", duration="1d")
    assert not Sanction.objects.exists()


def test_rows_of_active_matches_are_read_only_for_everyone(client, fixed_dice):
    superuser = make_user("root", is_staff=True, is_superuser=True)
    enable_totp(superuser)
    match = active_match(fixed_dice, make_user("ro1"), make_user("ro2"))
    game = Game.objects.get(match=match)
    client.force_login(superuser)
    for url in (f"/admin/games/match/{match.pk}/change/", f"/admin/games/game/{game.pk}/change/"):
        page = client.get(url)
        assert page.status_code == 200 and b'name="_save"' not in page.content
        assert client.post(url, {"board": "0"}).status_code == 403
    game.refresh_from_db()
    assert game.board == list(game.start_board)


def test_a_moderator_cannot_edit_users_ratings_or_boards(client, fixed_dice):
    moderator = make_moderator()
    player = make_user("protected")
    client.force_login(moderator)
    assert client.get(f"/admin/accounts/user/{player.pk}/password/").status_code == 403
    assert client.post(f"/admin/accounts/user/{player.pk}/change/", {}).status_code == 403
    assert client.get("/admin/ratings/rating/add/").status_code == 403
    assert client.get(f"/admin/accounts/user/{player.pk}/change/").status_code == 200  # can view


def test_a_rating_page_shows_the_player_first_and_saves_nothing(client):
    from ratings.models import Rating

    rating = Rating.objects.create(user=make_user("rated_one"), experience=4, matches=1, wins=1)
    superuser = make_user("root", is_staff=True, is_superuser=True)
    enable_totp(superuser)
    client.force_login(superuser)
    page = client.get(f"/admin/ratings/rating/{rating.pk}/change/")
    html = page.content.decode()
    assert page.status_code == 200 and 'name="_save"' not in html
    assert "rated_one" in html
    assert html.index("field-user") < html.index("field-rating") < html.index("field-peak")
    assert "field-history_length" in html and "field-last_rated_at" in html
