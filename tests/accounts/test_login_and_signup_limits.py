"""Failed logins are counted per (address, account) together, and per address across accounts
(accounts/adapters.py pre_authenticate; config/settings/accounts.py ACCOUNT_RATE_LIMITS): wrong
passwords
from one address cannot lock the owner out from another. Sign-up: a few accounts an hour per
address, a form refused for a typo not counted as one. The figures are the settings' own."""

from __future__ import annotations

import secrets

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

ATTACKER = "198.51.100.66"
OWNER = "203.0.113.7"


def log_in(login: str, password: str, address: str, client: Client | None = None):
    """One login from `address`: (signed in, refused for too many failures)."""
    client = client or Client()
    response = client.post(
        reverse("account_login"), {"login": login, "password": password}, REMOTE_ADDR=address
    )
    refused = response.status_code == 429 or "too many" in response.content.decode().lower()
    return "_auth_user_id" in client.session, refused


def test_wrong_passwords_from_another_address_do_not_lock_the_owner_out():
    """Before: five wrong passwords from anywhere locked the account for 5 minutes."""
    victim = make_user("victim")
    tries = [log_in("victim", f"guess{n}", ATTACKER) for n in range(8)]
    limit = settings.LOGIN_FAILURES_PER_ACCOUNT
    assert [refused for _, refused in tries] == [False] * limit + [True] * (8 - limit)
    # The attacker's address is refused even the right password ...
    assert log_in("victim", PASSWORD, ATTACKER) == (False, True)
    # ... typed another way (allauth compares the login without case): the same account.
    assert log_in("VICTIM", "guess", ATTACKER) == (False, True)
    # The owner, from their own address, signs in by username and by email.
    assert log_in("victim", PASSWORD, OWNER) == (True, False)
    assert log_in(victim.email, PASSWORD, OWNER) == (True, False)


def test_an_owner_who_mistypes_is_limited_at_their_own_address_only():
    make_user("clumsy")
    for n in range(settings.LOGIN_FAILURES_PER_ACCOUNT):
        assert log_in("clumsy", f"typo{n}", OWNER) == (False, False)
    assert log_in("clumsy", PASSWORD, OWNER) == (False, True)
    assert log_in("clumsy", PASSWORD, "192.0.2.44") == (True, False)


def test_a_successful_login_is_not_counted_as_a_failure():
    make_user("regular")
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT + 3):
        assert log_in("regular", PASSWORD, OWNER) == (True, False)
    for n in range(settings.LOGIN_FAILURES_PER_ACCOUNT - 1):
        assert log_in("regular", f"typo{n}", OWNER) == (False, False)
    assert log_in("regular", PASSWORD, OWNER) == (True, False)


def test_one_address_trying_many_accounts_meets_the_looser_address_limit():
    """Password spraying: one guess at each of many accounts from one address."""
    for n in range(settings.LOGIN_FAILURES_PER_ADDRESS):
        assert log_in(f"someone{n}", "Password1", ATTACKER) == (False, False), n
    make_user("untouched")
    assert log_in("untouched", PASSWORD, ATTACKER) == (False, True)
    assert log_in("untouched", PASSWORD, OWNER) == (True, False)


def test_an_ipv6_attacker_counts_as_their_64():
    """Every address of a /64 is one client: rotating them gives no fresh (address, account)."""
    make_user("v6victim")
    network = f"2001:db8:{secrets.token_hex(2)}:1"
    limit = settings.LOGIN_FAILURES_PER_ACCOUNT
    results = [log_in("v6victim", "guess", f"{network}::{n + 1:x}") for n in range(limit + 2)]
    assert [refused for _, refused in results] == [False] * limit + [True, True]
    assert log_in("v6victim", PASSWORD, f"2001:db8:{secrets.token_hex(2)}:2::1") == (True, False)


def test_hostile_logins_are_refused_and_counted():
    make_user("target")
    for login in ("x" * 10_000, "target\x00", "' OR 1=1 --", "target" + "\u200b"):
        assert log_in(login, "guess", ATTACKER)[0] is False
    # Wrong types: a repeated field, a missing one.
    response = Client().post(reverse("account_login"), {"login": ["a", "b"]}, REMOTE_ADDR=ATTACKER)
    assert response.status_code in (200, 429)
    assert log_in("target", PASSWORD, OWNER) == (True, False)


def sign_up(name: str, address: str, *, typo: bool = False, client: Client | None = None):
    """One sign-up form from `address`; the response."""
    client = client or Client()
    return client.post(
        reverse("account_signup"),
        {"username": name, "email": f"{name}@example.com", "password1": PASSWORD,
         "password2": PASSWORD + ("x" if typo else "")},
        REMOTE_ADDR=address,
    )  # fmt: skip


def test_a_few_accounts_an_hour_per_address():
    """Before: 20 a minute."""
    made = settings.SIGNUPS_PER_ADDRESS_PER_HOUR
    assert made <= 5
    for n in range(made):
        assert sign_up(f"newcomer{n}", ATTACKER).status_code == 302, n
    response = sign_up("one_too_many", ATTACKER, client=Client(HTTP_ACCEPT_LANGUAGE="ru"))
    assert response.status_code == 429
    assert "Слишком много попыток" in response.content.decode()  # the site's page, translated
    assert not User.objects.filter(username="one_too_many").exists()
    assert sign_up("from_elsewhere", OWNER).status_code == 302


def test_a_refused_form_is_not_an_account():
    for n in range(4):
        response = sign_up(f"typist{n}", OWNER, typo=True)
        assert response.status_code == 200 and not User.objects.filter(username=f"typist{n}")
    for n in range(settings.SIGNUPS_PER_ADDRESS_PER_HOUR):
        assert sign_up(f"typist_ok{n}", OWNER).status_code == 302


def test_forms_sent_are_limited_too():
    for n in range(settings.SIGNUP_FORMS_PER_ADDRESS_PER_HOUR):
        assert sign_up(f"flood{n}", ATTACKER, typo=True).status_code == 200, n
    assert sign_up("flood_last", ATTACKER).status_code == 429
    assert not User.objects.filter(username="flood_last").exists()


def test_a_guest_signing_up_counts_and_ipv6_counts_by_its_64():
    network = f"2001:db8:{secrets.token_hex(2)}:7"
    made = settings.SIGNUPS_PER_ADDRESS_PER_HOUR
    for n in range(made):
        guest_client = Client()
        guest_client.post(reverse("play_now"), REMOTE_ADDR=f"{network}::{n + 1:x}")
        guest_id = guest_client.session["_auth_user_id"]
        response = sign_up(f"was_guest{n}", f"{network}::{n + 1:x}", client=guest_client)
        assert response.status_code == 302
        assert User.objects.get(pk=guest_id).username == f"was_guest{n}"
    assert sign_up("v6_extra", f"{network}:ffff::1").status_code == 429
