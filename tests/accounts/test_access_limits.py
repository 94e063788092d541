"""The sign-up switch, the admin login's rate limit and the failed-login limit."""

import pytest
from django.urls import reverse

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def test_sign_up_can_be_closed(client, settings):
    """Before: ACCOUNT_ALLOW_SIGNUP=0 was documented but never read."""
    settings.ACCOUNT_ALLOW_SIGNUP = False
    response = client.post(
        reverse("account_signup"),
        {"username": "latecomer", "email": "late@example.com",
         "password1": PASSWORD, "password2": PASSWORD},
    )  # fmt: skip
    from accounts.models import User

    assert not User.objects.filter(username="latecomer").exists()
    assert "closed" in response.content.decode().lower()


def test_admin_login_goes_through_the_site_login(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_admin_login_form_is_rate_limited(client, settings):
    """Before: /admin/login/ accepted 25 wrong passwords in a row, then the right one."""
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "5/5m/ip,5/5m/key"}
    staff = make_user("moderator", is_staff=True)
    statuses = []
    for _ in range(8):
        response = client.post(
            "/admin/login/?next=/admin/", {"username": "moderator", "password": "wrong"}
        )
        statuses.append(response.status_code)
        assert "_auth_user_id" not in client.session
    assert all(status == 302 for status in statuses), statuses  # sent on to the site's login
    for _ in range(6):
        response = client.post(
            reverse("account_login"), {"login": "moderator", "password": "wrong"}
        )
    assert response.status_code == 429 or "too many" in response.content.decode().lower()
    response = client.post(
        reverse("account_login"), {"login": staff.username, "password": PASSWORD}
    )
    assert "_auth_user_id" not in client.session, "the right password while limited must fail"
