from allauth.account.decorators import secure_admin_login
from allauth.mfa.totp.views import activate_totp
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from accounts.views import GuestLoginView, GuestSignupView, set_language
from config import metrics_view
from moderation import staff_mfa
from moderation.staff_mfa import require_two_factors
from web import pwa, views

# The admin's own titles, in the moderator's language (Django's catalogs translate the rest).
admin.site.site_header = _("Long Nardy administration")
admin.site.site_title = _("Long Nardy admin")
# The admin's own login form has no rate limit (25 wrong passwords in a row would be accepted):
# send it through allauth's login, whose failed-login and per-address limits apply.
admin.site.login = secure_admin_login(admin.site.login)
# Staff need two factors (allauth's TOTP) before any admin page opens: a stolen password alone
# must not reach moderation.
require_two_factors(admin.site)

urlpatterns = [
    path("", views.home, name="home"),
    path("play/computer/", views.play_computer, name="play_computer"),
    path("rules/", views.rules, name="rules"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", metrics_view.metrics, name="metrics"),
    path("admin/", admin.site.urls),
    # Guests may open sign-up and log-in (accounts/views.py); allauth's names stay the same.
    path("accounts/signup/", GuestSignupView.as_view(), name="account_signup"),
    path("accounts/login/", GuestLoginView.as_view(), name="account_login"),
    # Staff set up TOTP only with a one-time enrolment link (moderation/staff_mfa.py).
    path(
        "accounts/2fa/totp/activate/",
        staff_mfa.enrolment_gate(activate_totp),
        name="mfa_activate_totp",
    ),  # fmt: skip
    path("accounts/2fa/staff/<str:token>/", staff_mfa.enrolment, name="staff_mfa_enrolment"),
    path("accounts/", include("allauth.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("@/<str:username>", views.profile, name="profile"),
    path("settings/", views.preferences, name="preferences"),
    # The installable site (web/pwa.py): the worker at the root, so its scope is every page.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("", include("accounts.urls")),
    path("", include("moderation.urls")),
    path("", include("games.urls")),
    path("", include("analysis.urls")),
    path("", include("ratings.urls")),
    path("", include("tournaments.urls")),
    path("", include("friends.urls")),
    path("", include("learning.urls")),
    path("", include("notifications.urls")),
]
