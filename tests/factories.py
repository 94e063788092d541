"""Small factory functions for tests (plain functions, no factory library)."""

from __future__ import annotations

import itertools

from allauth.account.models import EmailAddress

PASSWORD = "correct-horse-battery-staple-42"
_counter = itertools.count(1)


def make_user(
    username: str | None = None, *, password: str = PASSWORD, verified: bool = True, **extra
):
    from accounts.models import User

    number = next(_counter)
    username = username or f"player{number}"
    # Tests play turns to their end unless they ask for "confirm my turn" (on for new players).
    extra.setdefault("confirm_turn", False)
    user = User.objects.create_user(
        username=username, email=f"{username}@example.com", password=password, **extra
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=verified, primary=True)
    return user


def enable_totp(user) -> str:
    """Give the user a TOTP authenticator (allauth.mfa), as setting it up on the site does;
    returns its secret (staff need one before the admin opens)."""
    from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret

    secret = generate_totp_secret()
    TOTP.activate(user, secret)
    return secret
