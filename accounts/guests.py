"""Guests: "Play now" without an account.

A guest is a real `User` row (`is_guest`), logged in through the session like anyone, so it plays
through the same pages, sockets and services; it has no password and a generated name
(`Guest-4821`). Guests play the computer and casual games, watch, and never play rated, report
or challenge directly (`User.may_play_rated`, `User.may_report_or_challenge`). Signing up from a
guest session turns the same row into the new account (accounts/adapters.py), so the match
history stays. Guests who never played are deleted after GUEST_UNUSED_DAYS (a beat task).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import login
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import hooks
from accounts.models import User
from config.client_address import address_bucket

GUEST_PREFIX = "Guest-"


class GuestRefused(Exception):
    """Too many guests from one address; the message says when to come back."""


def _count_address(address: str) -> int:
    """Guests created from ``address`` (an IPv6 address counts as its /64) in the current clock
    hour (a Redis counter)."""
    key = f"guests:{address_bucket(address)}:{timezone.now():%Y%m%d%H}"
    cache.add(key, 0, timeout=3700)
    return cache.incr(key)


def guest_create(*, address: str | None) -> User:
    """A new guest account, at most GUESTS_PER_ADDRESS_PER_HOUR per client address."""
    if _count_address(address or "unknown") > settings.GUESTS_PER_ADDRESS_PER_HOUR:
        raise GuestRefused(
            _("Too many guests from your address this hour: sign up, or try again later.")
        )
    for digits in (4, 4, 4, 6, 6, 8):
        username = f"{GUEST_PREFIX}{secrets.randbelow(9 * 10 ** (digits - 1)) + 10 ** (digits - 1)}"
        guest = User(username=username, email=f"{username.lower()}@guests.invalid", is_guest=True)
        guest.set_unusable_password()
        try:
            with transaction.atomic():
                guest.save()
        except IntegrityError:  # the name is taken: draw another
            continue
        return guest
    raise GuestRefused(_("No guest name is free right now; please try again."))


def guest_sign_in(request) -> str | None:
    """Sign a visitor in as a new guest ("Play now" and the home page's one click); the refusal's
    message when the address has made too many."""
    try:
        guest = guest_create(address=request.META.get("REMOTE_ADDR"))
    except GuestRefused as refusal:
        return str(refusal)
    login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    return None


def guests_delete_unused(*, now=None) -> int:
    """Delete guests who never played and were last seen GUEST_UNUSED_DAYS ago (a guest with
    matches keeps its row: the opponents' history shows it; games answers `has_history`,
    accounts/hooks.py)."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.GUEST_UNUSED_DAYS)
    unused = User.objects.filter(is_guest=True).filter(
        Q(last_login__lt=cutoff) | Q(last_login__isnull=True, date_joined__lt=cutoff)
    )
    _total, by_model = unused.exclude(hooks.has_history()).delete()
    return by_model.get(User._meta.label, 0)
