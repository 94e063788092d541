from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from config import metrics_view, views

# The admin's own login form has no rate limit (issue 10: 25 wrong passwords in a row were
# accepted): send it through allauth's login, whose failed-login and per-address limits apply.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", metrics_view.metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("ratings.urls")),
]
