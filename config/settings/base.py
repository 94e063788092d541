"""What every process needs first: the environment's helpers, DEBUG and the secret key, the
installed apps and middleware, templates, email, languages and static files."""

from __future__ import annotations

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {value!r}")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Off unless set: a deployment that forgets DEBUG=0 must not run with debug pages, the published
# development key and console email. `make run` and `make test` set DEBUG=1.
DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG=0 (production). "
            "Generate one with: python -c 'import secrets; print(secrets.token_urlsafe(64))'"
        )
    SECRET_KEY = "development-only-insecure-key-never-use-in-production-0123456789abcdef"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# The site's address for links in emails sent with no request to read it from (a Celery task's:
# games/correspondence_mail.py): https and the first allowed host unless set.
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/") or (
    f"https://{ALLOWED_HOSTS[0]}" if ALLOWED_HOSTS and not DEBUG else "http://127.0.0.1:8000"
)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "channels",
    "allauth",
    "accounts.apps.EmailAddressesConfig",  # allauth.account, named for the admin
    "allauth.mfa",
    "accounts",
    "games",
    "pairing",
    "ratings",
    "chat",
    "calls",
    "analysis",
    "moderation",
    "tournaments",
    "friends",
    "learning",
    "notifications",
]

MIDDLEWARE = [
    "config.metrics.RequestMetricsMiddleware",  # first: it times everything after it
    "django.middleware.security.SecurityMiddleware",
    "config.content_security_policy.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "moderation.middleware.WarningMiddleware",
    "moderation.staff_mfa.StaffTwoFactorMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Nothing without a replica: after a write, the browser's pages read the primary.
    "config.db_router.PrimaryAfterWriteMiddleware",
]

ROOT_URLCONF = "web.urls"
ASGI_APPLICATION = "web.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.appearance.appearance_context",
            ],
        },
    },
]

# --- Email -------------------------------------------------------------------------------------
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Long Nardy <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    raise ImproperlyConfigured("Production (DEBUG=0) needs EMAIL_HOST (and EMAIL_* for SMTP).")

# --- Internationalisation ----------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ro", _("Romanian")),
    ("ru", _("Russian")),
    ("uk", _("Ukrainian")),
    ("el", _("Greek")),
    # Latin script, as the Serbian players' own rule pages are written (seeds/002); Django's and
    # allauth's catalogs for it are `sr_Latn`.
    ("sr-latn", _("Serbian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The visitor's choice lives in this cookie (set by the selector); a signed-in user's choice is also
# saved on the user (accounts.middleware.UserLanguageMiddleware), so it follows them to every
# browser, to their sockets and to their emails.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = not DEBUG
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files (WhiteNoise serves them with DEBUG on or off) ----------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Without collectstatic (development) WhiteNoise finds files through the finders.
WHITENOISE_USE_FINDERS = True
