from django.contrib import admin
from django.urls import include, path

from accounts.views import set_language
from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("ratings.urls")),
]
