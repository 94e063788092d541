"""The admin's frictions (docs/operations.md "Administration"): a login just made with password and
code
counts as fresh for the two-factor pages, and only that login, only for a while; the recovery
codes page has a way on; the admin's index names its sections apart."""

from __future__ import annotations

import re
import time

import pytest
from allauth.account import app_settings as account_settings
from django.contrib.auth.models import Group

from accounts.adapters import LOGGED_IN_AT_KEY
from moderation.staff_mfa import enrolment_link_create
from tests.factories import PASSWORD, enable_totp, make_user
from tests.moderation.test_staff_two_factors import totp_code

pytestmark = pytest.mark.django_db
REAUTHENTICATE = "/accounts/reauthenticate/"


def sign_in_with_code(client, user, secret):
    client.post("/accounts/login/", {"login": user.username, "password": PASSWORD})
    assert (
        client.post("/accounts/2fa/authenticate/", {"code": totp_code(secret)}).status_code == 302
    )
    assert client.session.get("_auth_user_id") == str(user.pk)


def test_a_login_with_password_and_code_opens_the_recovery_codes_at_once(client):
    staff = make_user("fresh", is_staff=True)
    sign_in_with_code(client, staff, enable_totp(staff))
    made = client.post("/accounts/2fa/recovery-codes/generate/")
    assert made.status_code == 302 and not made["Location"].startswith(REAUTHENTICATE)
    page = client.get("/accounts/2fa/recovery-codes/")
    assert page.status_code == 200
    assert 'id="recovery-codes-admin" href="/admin/"' in page.text  # (b) a way on
    assert 'id="recovery-codes-site" href="/"' in page.text


def test_after_the_reauthentication_timeout_the_password_is_asked_again(client):
    staff = make_user("stale", is_staff=True)
    sign_in_with_code(client, staff, enable_totp(staff))
    session = client.session
    session[LOGGED_IN_AT_KEY] = time.time() - account_settings.REAUTHENTICATION_TIMEOUT - 1
    session.save()
    response = client.post("/accounts/2fa/recovery-codes/generate/")
    assert response["Location"].startswith(REAUTHENTICATE)
    assert client.get("/accounts/2fa/totp/deactivate/")["Location"].startswith(REAUTHENTICATE)


@pytest.mark.parametrize("forged", ["yesterday", None, 10**12, "1e99"])
def test_a_login_by_password_alone_is_not_fresh_for_the_factors(client, forged):
    """Whoever holds only the password (a staff member without factors yet, with a link) must
    still confirm it before enrolling; a session value that is no login time counts for nothing."""
    staff = make_user("halfway", is_staff=True)
    client.post("/accounts/login/", {"login": "halfway", "password": PASSWORD})
    assert LOGGED_IN_AT_KEY not in client.session
    session = client.session
    session[LOGGED_IN_AT_KEY] = forged
    session.save()
    client.get(enrolment_link_create(staff))
    assert client.get("/accounts/2fa/totp/activate/")["Location"].startswith(REAUTHENTICATE)


def test_a_player_with_two_factors_is_fresh_after_login_too(client):
    player = make_user("player2fa")
    sign_in_with_code(client, player, enable_totp(player))
    page = client.get("/accounts/2fa/totp/deactivate/")
    assert page.status_code == 200


def test_the_admin_index_names_its_sections_apart(client):
    root = make_user("root", is_staff=True, is_superuser=True)
    sign_in_with_code(client, root, enable_totp(root))
    index = client.get("/admin/").text
    sections = re.findall(r'<caption>\s*<a [^>]*class="section"[^>]*>([^<]+)</a>', index)
    assert "Players and staff" in sections and "Email addresses" in sections
    assert "Accounts" not in sections
    assert len(sections) == len(set(sections)), sections


def test_a_moderator_sees_the_players_section_by_its_name(client):
    moderator = make_user("mod_idx", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    sign_in_with_code(client, moderator, enable_totp(moderator))
    assert "Players and staff" in client.get("/admin/").text
