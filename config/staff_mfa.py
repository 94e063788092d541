"""Who opens the admin: active staff with two-factor authentication (django-allauth's `mfa`: TOTP
with recovery codes) and no ban in force.

The admin's login already goes through allauth (config/urls.py), so a staff member who has an
authenticator is asked for its code at every login. One who has none is sent from any admin page
to set TOTP up; the admin site's own permission check refuses them as well, so no admin view can
be reached another way. A staff member under a ban (moderation) is refused the admin altogether.
"""

from __future__ import annotations

from collections.abc import Callable

from allauth.mfa.utils import is_mfa_enabled
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from moderation.selectors import ban_in_force


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
