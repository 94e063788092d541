"""Accounts: django-allauth's sign-up, login, email confirmation, rate limits and two factors."""

from __future__ import annotations

import os

from .base import env_bool

# --- Accounts (django-allauth) ------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
# A new player stays signed in (a guest keeps playing, its games kept: accounts/adapters.py) and
# gets a confirmation email whose link confirms at once and signs in in the browser that signed
# up (allauth's LOGIN_ON_EMAIL_CONFIRMATION works within that session only: the link alone is
# no login).
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_CONFIRM_EMAIL_ON_GET = True
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
# ACCOUNT_ALLOW_SIGNUP=0 closes sign-up (maintenance, an attack); accounts/adapters.py reads it.
ACCOUNT_ALLOW_SIGNUP = env_bool("ACCOUNT_ALLOW_SIGNUP", True)
# allauth's rate limits (docs/security.md, "Security notes"); each address an IPv4 one or an IPv6
# /64.
# Failed logins: LOGIN_FAILURES_PER_ACCOUNT per (address, account) together, so nobody at another
# address can lock the owner out (accounts/adapters.py pre_authenticate), and a looser
# LOGIN_FAILURES_PER_ADDRESS per address across accounts; both over 5 minutes, a successful
# login not counted. Sign-up: SIGNUP_FORMS_PER_ADDRESS_PER_HOUR forms sent, of which
# SIGNUPS_PER_ADDRESS_PER_HOUR may make an account (one address may be a whole school's NAT).
LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("LOGIN_FAILURES_PER_ACCOUNT", "5"))
LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("LOGIN_FAILURES_PER_ADDRESS", "20"))
SIGNUP_FORMS_PER_ADDRESS_PER_HOUR = int(os.environ.get("SIGNUP_FORMS_PER_ADDRESS_PER_HOUR", "30"))
SIGNUPS_PER_ADDRESS_PER_HOUR = int(os.environ.get("SIGNUPS_PER_ADDRESS_PER_HOUR", "3"))
ACCOUNT_RATE_LIMITS = {
    "login_failed": f"{LOGIN_FAILURES_PER_ADDRESS}/5m/ip,{LOGIN_FAILURES_PER_ACCOUNT}/5m/key",
    "signup": f"{SIGNUP_FORMS_PER_ADDRESS_PER_HOUR}/h/ip",
    "signup_account_made": f"{SIGNUPS_PER_ADDRESS_PER_HOUR}/h/ip",
}
ACCOUNT_RATE_LIMITS_ENABLED = env_bool("ACCOUNT_RATE_LIMITS_ENABLED", True)
if not ACCOUNT_RATE_LIMITS_ENABLED:
    ACCOUNT_RATE_LIMITS = False
# Two-factor authentication: TOTP with recovery codes; staff must have it before the
# admin opens (moderation/staff_mfa.py).
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "Long Nardy"
# Guests may open the login and sign-up pages; accounts/views.py sends everyone else signed in
# away from them, as allauth would.
ACCOUNT_AUTHENTICATED_LOGIN_REDIRECTS = False
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
LOGIN_URL = "account_login"
