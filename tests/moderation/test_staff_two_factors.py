"""Staff accounts are protected (issue 14): the admin login is allauth's (its rate limits apply,
tests/accounts/test_access_limits.py), and staff must use two factors before the admin opens."""

from __future__ import annotations

import pytest
from allauth.mfa.totp.internal.auth import (
    format_hotp_value,
    hotp_value,
    yield_hotp_counters_from_time,
)

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
