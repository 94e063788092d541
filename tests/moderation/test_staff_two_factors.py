"""Staff accounts are protected: the admin login is allauth's (its rate limits apply,
tests/accounts/test_access_limits.py), staff must use two factors before the admin opens, and
they enrol their authenticator only through a one-time link (moderation/staff_mfa.py)."""

from __future__ import annotations

import io
import re
import time

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import (
    SECRET_SESSION_KEY,
    format_hotp_value,
    hotp_value,
    yield_hotp_counters_from_time,
)
from django.core.management import CommandError, call_command

from moderation.staff_mfa import SESSION_GRANT, enrolment_link_create
from tests.factories import PASSWORD, enable_totp, make_user
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("superuser", [False, True])
def test_the_admin_refuses_staff_without_two_factors(client, superuser):
    staff = make_user("no2fa", is_staff=True, is_superuser=superuser)
    client.force_login(staff)
    for path in ("/admin/", "/admin/moderation/report/", "/admin/accounts/user/"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/2fa/")
    # Once TOTP is set up, the admin opens.
    enable_totp(staff)
    assert client.get("/admin/").status_code == 200


def test_staff_with_totp_are_asked_for_a_code_at_login(client):
    make_moderator("twofa")
    response = client.post("/accounts/login/", {"login": "twofa", "password": PASSWORD})
    assert response.status_code == 302 and "/2fa/authenticate" in response["Location"]
    assert client.get("/admin/").status_code == 302  # not signed in yet: the code is missing
    assert "_auth_user_id" not in client.session


def test_a_totp_code_completes_the_login_and_opens_the_admin(client):
    moderator = make_user("coded", is_staff=True)
    secret = enable_totp(moderator)
    client.post("/accounts/login/", {"login": "coded", "password": PASSWORD})
    counter = next(yield_hotp_counters_from_time())
    code = format_hotp_value(hotp_value(secret, counter))
    response = client.post("/accounts/2fa/authenticate/", {"code": code})
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200


# --- Enrolment needs a one-time link, not only the password (moderation/staff_mfa.py) ------------


TOTP_PERIOD = 30  # allauth's MFA_TOTP_PERIOD, which the settings leave at its default
CODE_MARGIN_SECONDS = 4


def totp_code(secret: str) -> str:
    """The code of the current period, taken only with CODE_MARGIN_SECONDS of it left: allauth
    accepts the current period's code alone (MFA_TOTP_TOLERANCE 0), so a code read just before
    a period ends is refused by the time a loaded browser sends it."""
    while TOTP_PERIOD - time.time() % TOTP_PERIOD < CODE_MARGIN_SECONDS:
        time.sleep(0.1)
    return format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))


def try_to_enrol(client) -> int:
    """What anyone signed in with the password does: confirm it (allauth asks again before
    any change to the factors), open the set-up page, read the secret, send its code."""
    client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    page = client.get("/accounts/2fa/totp/activate/")
    secret = client.session.get(SECRET_SESSION_KEY)
    if page.status_code != 200 or not secret:
        return page.status_code
    return client.post("/accounts/2fa/totp/activate/", {"code": totp_code(secret)}).status_code


def test_the_password_alone_does_not_enrol_a_staff_authenticator(client):
    """Whoever holds a new staff member's password first used to enrol their own authenticator,
    and with it own the account."""
    staff = make_user("newstaff", is_staff=True)
    client.post("/accounts/login/", {"login": "newstaff", "password": PASSWORD})
    assert client.session.get("_auth_user_id") == str(staff.pk)
    assert try_to_enrol(client) == 403
    assert client.post("/accounts/2fa/totp/activate/", {"code": "123456"}).status_code == 403
    assert not Authenticator.objects.filter(user=staff).exists()
    page = client.get("/admin/", follow=True)
    assert page.status_code == 403 and b"enrolment link" in page.content


def test_a_superusers_emailed_link_lets_the_staff_member_enrol_once(client, mailoutbox):
    root = make_user("root", is_staff=True, is_superuser=True)
    enable_totp(root)
    staff = make_user("invited", is_staff=True)
    client.force_login(root)
    response = client.post("/admin/accounts/user/", {
        "action": "send_enrolment_link", "_selected_action": [staff.pk], "index": 0,
    })  # fmt: skip
    assert response.status_code == 302
    (mail,) = mailoutbox
    assert mail.to == [staff.email]
    link = re.search(r"https?://\S+(/accounts/2fa/staff/\S+/)", mail.body).group(1)
    client.logout()
    # Another account cannot use it (and does not use it up).
    make_user("bystander", is_staff=True)
    client.post("/accounts/login/", {"login": "bystander", "password": PASSWORD})
    assert client.get(link).status_code == 403
    client.logout()
    client.post("/accounts/login/", {"login": "invited", "password": PASSWORD})
    assert client.get(link)["Location"] == "/accounts/2fa/totp/activate/"
    assert client.get(link).status_code == 403  # once
    assert try_to_enrol(client) == 302
    assert Authenticator.objects.filter(user=staff, type="totp").exists()
    assert client.get("/admin/").status_code == 200


def test_the_session_may_enrol_only_for_a_while_after_the_link(client):
    staff = make_user("slow", is_staff=True)
    client.post("/accounts/login/", {"login": "slow", "password": PASSWORD})
    client.get(enrolment_link_create(staff))
    session = client.session
    session[SESSION_GRANT] = {**session[SESSION_GRANT], "until": time.time() - 1}
    session.save()
    assert try_to_enrol(client) == 403
    assert not Authenticator.objects.filter(user=staff).exists()


def test_only_superusers_send_links_and_only_to_staff_without_two_factors(client, mailoutbox):
    moderator = make_moderator("not_root")
    staff = make_user("waiting_staff", is_staff=True)
    client.force_login(moderator)
    page = client.get("/admin/accounts/user/").content.decode()
    assert 'value="send_enrolment_link"' not in page
    client.post("/admin/accounts/user/", {
        "action": "send_enrolment_link", "_selected_action": [staff.pk], "index": 0,
    })  # fmt: skip
    assert mailoutbox == []
    root = make_user("root2", is_staff=True, is_superuser=True)
    enable_totp(root)
    client.force_login(root)
    player = make_user("just_a_player")
    client.post("/admin/accounts/user/", {
        "action": "send_enrolment_link", "_selected_action": [player.pk, moderator.pk],
        "index": 0,
    })  # fmt: skip
    assert mailoutbox == []  # not staff; has two factors already


def test_the_first_superuser_gets_a_link_from_the_shell(client):
    root = make_user("first_root", is_staff=True, is_superuser=True)
    printed = io.StringIO()
    call_command("staff_enrolment_link", "first_root", stdout=printed, stderr=io.StringIO())
    client.post("/accounts/login/", {"login": "first_root", "password": PASSWORD})
    assert client.get(printed.getvalue().strip()).status_code == 302
    assert try_to_enrol(client) == 302
    assert Authenticator.objects.filter(user=root, type="totp").exists()
    with pytest.raises(CommandError):  # two factors already
        call_command("staff_enrolment_link", "first_root", stdout=io.StringIO())


def test_players_still_enrol_freely(client):
    player = make_user("careful_player")
    client.post("/accounts/login/", {"login": "careful_player", "password": PASSWORD})
    assert try_to_enrol(client) == 302
    assert Authenticator.objects.filter(user=player, type="totp").exists()
