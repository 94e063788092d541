"""Who opens the admin: active staff with two-factor authentication (django-allauth's `mfa`: TOTP
with recovery codes) and no ban in force.

The admin's login already goes through allauth (web/urls.py), so a staff member who has an
authenticator is asked for its code at every login. One who has none is sent from any admin page
to set TOTP up; the admin site's own permission check refuses them as well, so no admin view can
be reached another way. A staff member under a ban (moderation) is refused the admin altogether.

Enrolment needs more than the password: otherwise whoever first holds a new staff member's
password enrols their own authenticator and owns the account for good. A staff member without
two factors may open the TOTP set-up only in a session that opened a one-time enrolment link:
a superuser sends it to the account's email address from the admin (the Users list, "Send a
two-factor enrolment link"), or someone with a shell on the server prints it
(`manage.py staff_enrolment_link <username>`, for the first superuser). The link works once,
for ENROLMENT_LINK_SECONDS, and only signed in as its owner; opening it allows the set-up for
ENROLMENT_GRANT_SECONDS in that session. Players enrol freely, as before.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable

from allauth.account.adapter import get_adapter
from allauth.mfa.utils import is_mfa_enabled
from django.contrib import admin, messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from moderation.selectors import ban_in_force

ENROLMENT_LINK_SECONDS = 24 * 3600  # the email says "expires after a day"
ENROLMENT_GRANT_SECONDS = 15 * 60
SESSION_GRANT = "staff_mfa_enrolment"


class EnrolmentRefused(Exception):
    """No link for this user; the message says why."""


def has_two_factors(user) -> bool:
    return bool(user is not None and user.is_authenticated and is_mfa_enabled(user))


def staff_banned(user) -> bool:
    return bool(user.is_authenticated and user.is_staff and ban_in_force(user.pk) is not None)


def require_two_factors(site: admin.AdminSite) -> None:
    """Wrap the site's permission check: active staff with two factors and no ban only."""
    base = site.has_permission

    def has_permission(request: HttpRequest) -> bool:
        user = request.user
        return base(request) and has_two_factors(user) and not staff_banned(user)

    site.has_permission = has_permission  # type: ignore[method-assign]


class StaffTwoFactorMiddleware:
    """Staff without two factors who open the admin are sent to set up TOTP; banned staff are
    refused it (403)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.admin_prefix: str | None = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.admin_prefix is None:
            self.admin_prefix = reverse("admin:index")
        user = getattr(request, "user", None)
        if (
            request.path.startswith(self.admin_prefix)
            and user is not None
            and user.is_authenticated
            and user.is_staff
        ):
            if staff_banned(user):
                raise PermissionDenied("banned staff")
            if not has_two_factors(user):
                messages.warning(
                    request,
                    _("Staff must set up two-factor authentication before the admin opens."),
                )
                return redirect("mfa_activate_totp")
        return self.get_response(request)


# --- Enrolment links ------------------------------------------------------------------------------


def _link_key(token: str) -> str:
    # Only a digest is stored: a copy of the cache does not hold usable links.
    return "staff-mfa-enrolment:" + hashlib.sha256(token.encode()).hexdigest()


def enrolment_link_create(user) -> str:
    """A new one-time enrolment link (its path) for this staff member."""
    token = secrets.token_urlsafe(32)
    cache.set(_link_key(token), user.pk, timeout=ENROLMENT_LINK_SECONDS)
    return reverse("staff_mfa_enrolment", kwargs={"token": token})


def enrolment_link_send(*, request: HttpRequest, user) -> str:
    """Email a new enrolment link to the staff member's address (in their language); returns
    the address, for the superuser to check. Refuses anyone who is not active staff or already
    has two factors."""
    if not user.is_staff or not user.is_active:
        raise EnrolmentRefused(_("%(name)s is not active staff.") % {"name": user.username})
    if has_two_factors(user):
        raise EnrolmentRefused(_("%(name)s has two factors already.") % {"name": user.username})
    url = request.build_absolute_uri(enrolment_link_create(user))
    get_adapter(request).send_mail(
        "staff_mfa/email/enrolment",
        user.email,
        {"user": user, "enrolment_url": url},
    )
    return user.email


def _granted(request: HttpRequest) -> bool:
    grant = request.session.get(SESSION_GRANT) or {}
    return grant.get("user") == request.user.pk and grant.get("until", 0) > time.time()


@login_required
def enrolment(request: HttpRequest, token: str) -> HttpResponse:
    """Open a one-time enrolment link: signed in as its owner, this session may set up TOTP."""
    key = _link_key(token)
    # Used up only by its owner, once (the cache's delete answers whether the key was there).
    if cache.get(key) != request.user.pk or not cache.delete(key):
        return render(request, "staff_mfa/enrolment_needed.html", {"invalid": True}, status=403)
    request.session[SESSION_GRANT] = {
        "user": request.user.pk,
        "until": time.time() + ENROLMENT_GRANT_SECONDS,
    }
    return redirect("mfa_activate_totp")


def enrolment_gate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap allauth's TOTP set-up view: staff without two factors need an opened link."""

    def gated(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        user = request.user
        if (
            user.is_authenticated
            and user.is_staff
            and not has_two_factors(user)
            and not _granted(request)
        ):
            return render(request, "staff_mfa/enrolment_needed.html", status=403)
        return view(request, *args, **kwargs)

    return gated
