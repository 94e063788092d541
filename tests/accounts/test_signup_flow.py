import re
import uuid

import pytest
from django.core import mail
from django.urls import reverse

from tests.factories import PASSWORD, make_user

RUN = uuid.uuid4().hex[:8]  # addresses of this run (allauth's email cooldown outlives a test)

pytestmark = pytest.mark.django_db


def test_sign_up_verify_log_in_profile_log_out(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "natalia",
            "email": "natalia@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "/rules/",
        },
    )
    # The new player stays signed in and lands back where they were.
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert client.session["_auth_user_id"]

    # Our own email, in the site's name (not the host's), with a link that confirms at once.
    assert len(mail.outbox) >= 1
    message = mail.outbox[-1]
    assert message.to == ["natalia@example.com"]
    assert message.subject == "Long Nardy: Welcome: confirm your email address"
    assert message.body.startswith("Hello from Long Nardy!")
    assert "Welcome to Long Nardy, natalia!" in message.body
    assert "testserver" not in message.body.splitlines()[0]
    body = message.body
    confirm_path = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+)", body).group(1)
    response = client.get(confirm_path)
    assert response.status_code == 302 and response["Location"] == "/rules/"

    from allauth.account.models import EmailAddress

    assert EmailAddress.objects.get(email="natalia@example.com").verified
    client.logout()

    # Log in with the email address this time (username or email both work).
    response = client.post(
        reverse("account_login"), {"login": "natalia@example.com", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"]

    response = client.get(reverse("profile", kwargs={"username": "natalia"}))
    assert response.status_code == 200
    assert "natalia" in response.content.decode()

    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_with_username_and_wrong_password_is_refused(client):
    make_user("dimitri")
    response = client.post(reverse("account_login"), {"login": "dimitri", "password": "wrong"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    response = client.post(reverse("account_login"), {"login": "dimitri", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_profile_of_unknown_player_is_404(client):
    assert client.get("/@/nobody-here").status_code == 404


def test_password_change_and_reset(client):
    user = make_user("elena")
    client.force_login(user)
    new_password = "another-long-password-77"
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": new_password, "password2": new_password},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new_password)

    client.logout()
    mail.outbox.clear()
    response = client.post(reverse("account_reset_password"), {"email": "elena@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/password/reset/key/" in mail.outbox[0].body


def test_preferences_form_saves_and_rejects_forged_csrf(client):
    from django.test import Client

    user = make_user("ion")
    client.force_login(user)
    response = client.post(reverse("preferences"), {"auto_roll": "on"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.auto_roll is True

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    response = strict.post(reverse("preferences"), {})
    assert response.status_code == 403
    user.refresh_from_db()
    assert user.auto_roll is True


def test_pages_render(client):
    for name in ("home", "rules", "account_login", "account_signup"):
        response = client.get(reverse(name))
        assert response.status_code == 200, name
    assert "six consecutive points" in client.get(reverse("rules")).content.decode()


@pytest.mark.parametrize("language", ["ru", "ro", "uk", "el", "sr-latn"])
def test_the_confirmation_email_is_ours_in_the_players_language(client, language):
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    mail.outbox.clear()
    client.post(
        reverse("account_signup"),
        {"username": f"player_{language.replace('-', '_')}",
         "email": f"{language}{RUN}@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )  # fmt: skip
    message = mail.outbox[-1]
    first_line = message.body.splitlines()[0]
    assert first_line != "Hello from Long Nardy!" and "testserver" not in first_line
    assert "Welcome" not in message.subject and "Long Nardy" not in message.subject
    assert "Long Nardy" not in message.body and "/accounts/confirm-email/" in message.body


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:x"])
def test_a_foreign_next_is_not_followed(client, target):
    response = client.post(
        reverse("account_signup"),
        # An address of its own: allauth's cooldown keeps one address's emails apart for minutes.
        {"username": "wary", "email": f"wary{len(target)}{RUN}@example.com", "password1": PASSWORD,
         "password2": PASSWORD, "next": target},
    )  # fmt: skip
    assert response.status_code == 302 and "evil" not in response["Location"]
    assert "javascript" not in response["Location"]
    body = mail.outbox[-1].body
    confirm_path = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+)", body).group(1)
    response = client.get(confirm_path)
    assert response.status_code == 302 and "evil" not in response["Location"]
