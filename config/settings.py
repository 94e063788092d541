"""Django settings, read from the environment in this one place.

Development (the default) needs nothing set: `make run` / `make test` export DATABASE_URL and
REDIS_URL for the embedded servers they start (config/embedded.py). Production is `DEBUG=0`, which
requires SECRET_KEY and turns on the secure-cookie / proxy settings; see README "Production".
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent


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
]

MIDDLEWARE = [
    "config.metrics.RequestMetricsMiddleware",  # first: it times everything after it
    "django.middleware.security.SecurityMiddleware",
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
            ],
        },
    },
]

# --- PostgreSQL -------------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if not DATABASE_URL:
    raise ImproperlyConfigured(
        "DATABASE_URL is not set. Use `make run` / `make test` (they start an embedded "
        "PostgreSQL), or set DATABASE_URL=postgres://user:password@host:5432/dbname."
    )
_database = dj_database_url.parse(DATABASE_URL)
if _database["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("DATABASE_URL must point at PostgreSQL (postgres://...).")
# Under ASGI every sync_to_async call may land on another thread; psycopg's pool hands out
# ready connections instead of opening one per message. Pooling requires CONN_MAX_AGE = 0.
_database["CONN_MAX_AGE"] = 0
_database["OPTIONS"] = {
    # Parameters are bound on the server (Django's documented psycopg 3 option), so a statement
    # run five times on a connection is prepared there and planned once: the play commands'
    # PostgreSQL CPU went from 4.3 to 1.9 ms per command (`make bench-service`).
    "prepare_threshold": 5,
    "server_side_binding": True,
    "pool": {
        "min_size": int(os.environ.get("DATABASE_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DATABASE_POOL_MAX", "20")),
        "timeout": 10,
    },
}
_database["TEST"] = {"NAME": os.environ.get("DATABASE_TEST_NAME") or None}
DATABASES = {"default": _database}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
ATOMIC_REQUESTS = False  # transactions belong to services (README "How code is shaped here")

# --- Redis: channel layer, cache (sessions, allauth rate limits), Celery -------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if not REDIS_URL:
    raise ImproperlyConfigured(
        "REDIS_URL is not set. Use `make run` / `make test` (they start an embedded Redis), "
        "or set REDIS_URL=redis://host:6379/0 (or unix:///path/to/redis.sock?db=0)."
    )


def per_test_worker(name: str) -> str:
    """Test runs only: pytest-xdist runs the suite in several processes at once and sets
    PYTEST_XDIST_WORKER (gw0, gw1, ...) in each before settings load. pytest-django gives each its
    own database (`_gw0`); this gives each its own Redis keys and Celery queue, so one's site and
    worker never take another's tasks. The processes a test starts get the values it derived
    (tests/conftest.py, child_environment), not the variable."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"{name}-{worker}" if worker else name


# A prefix keeps several sites (or a test run) apart on one Redis server.
REDIS_PREFIX = per_test_worker(os.environ.get("REDIS_PREFIX", "nardy"))

# Redis pub/sub: a group message is published once and each Daphne process that has a socket in
# the group gets it once and hands it to those sockets (the list-based core layer ran a Redis
# script per receiving socket, and two commands per message received: bench/live_load.py). Nothing
# is queued for a socket that is not connected; match sockets resynchronise by version
# (docs/protocol.md). Pub/sub channels ignore the Redis database number, hence the prefix.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": f"{REDIS_PREFIX}:asgi:"},
    }
}

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"{REDIS_PREFIX}:cache",
        # One pool per process, not one per async context (config/redis_client.py).
        "OPTIONS": {"pool_class": "config.redis_client.SharedConnectionPool"},
    }
}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"


def celery_redis_url(url: str) -> str:
    """Kombu spells a unix-socket Redis `redis+socket:///path`; redis-py spells it `unix://`."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return f"redis+socket://{parts.path}" + (f"?{parts.query}" if parts.query else "")
    return url


CELERY_BROKER_URL = celery_redis_url(REDIS_URL)
CELERY_RESULT_BACKEND = celery_redis_url(REDIS_URL)
CELERY_TASK_DEFAULT_QUEUE = (
    per_test_worker(os.environ["CELERY_QUEUE"]) if os.environ.get("CELERY_QUEUE") else REDIS_PREFIX
)
# The computer's moves have their own queue, so a Bot-Master turn (up to a second of CPU) never
# waits in front of a turn's deadline: production runs one worker per queue (README
# "Production"); a worker started without -Q (`make run`, the tests) consumes both. The name
# extends the default queue's, so each test run (config/launcher.py) and each test process
# (per_test_worker) keeps its own.
CELERY_BOT_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.bots"
# Post-match analysis (analysis/) is CPU work of up to a couple of minutes a match: a queue of
# its own whose worker runs at the lowest CPU priority (nice 19: deploy/systemd/
# nardy-analysis.service, the launcher), so it never delays a deadline or a bot's move.
CELERY_ANALYSIS_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.analysis"
CELERY_TASK_QUEUES = [
    Queue(CELERY_TASK_DEFAULT_QUEUE),
    Queue(CELERY_BOT_QUEUE),
    Queue(CELERY_ANALYSIS_QUEUE),
]
CELERY_TASK_ROUTES = {
    "games.bot_act": {"queue": CELERY_BOT_QUEUE},
    "games.nudge_bots": {"queue": CELERY_BOT_QUEUE},
    "analysis.run": {"queue": CELERY_ANALYSIS_QUEUE},
}
CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": f"{REDIS_PREFIX}:celery:"}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"global_keyprefix": f"{REDIS_PREFIX}:celery:"}
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 4
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# With JSON logs the worker keeps Django's LOGGING instead of installing its own plain format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = os.environ.get("LOG_FORMAT", "plain") != "json"
# How often the home page's live boards may move (games/live_boards.py).
LIVE_BOARDS_SECONDS = float(os.environ.get("LIVE_BOARDS_SECONDS", "1"))
# Exactly one beat process runs these (README "Production").
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "sweep-deadlines": {
        "task": "games.sweep_deadlines",
        "schedule": float(os.environ.get("DEADLINE_SWEEP_SECONDS", "0.5")),
        "options": {"expires": 5},
    },
    "sweep-pools": {
        "task": "pairing.sweep_pools",
        "schedule": float(os.environ.get("POOL_SWEEP_SECONDS", "1")),
        "options": {"expires": 5},
    },
    # The home page's small live boards (games/live_boards.py), sent when they moved.
    "publish-live-boards": {
        "task": "games.publish_live_boards",
        "schedule": LIVE_BOARDS_SECONDS,
        "options": {"expires": 5},
    },
    "expire-challenges": {
        "task": "games.expire_challenges",
        "schedule": 10.0,
        "options": {"expires": 10},
    },
    "close-stale-matches": {
        "task": "games.close_stale_matches",
        "schedule": 600.0,
        "options": {"expires": 300},
    },
    "nudge-bots": {
        "task": "games.nudge_bots",
        "schedule": 15.0,
        "options": {"expires": 10},
    },
    "delete-unused-guests": {
        "task": "accounts.delete_unused_guests",
        "schedule": 3600.0,
        "options": {"expires": 1800},
    },
    # Tournaments (tournaments/tasks.py): starts and ends overdue by a lost task, lost scores,
    # pairing, and the standings published at most once a second (tournaments/live.py).
    "sweep-tournaments": {
        "task": "tournaments.sweep",
        "schedule": float(os.environ.get("TOURNAMENT_SWEEP_SECONDS", "1")),
        "options": {"expires": 5},
    },
    "schedule-series": {
        "task": "tournaments.schedule_series",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
    # ratings.selectors.BOARD_COUNT_SECONDS: the leaderboards' page starts, listed ahead of views.
    "refresh-boards": {
        "task": "ratings.refresh_boards",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
}

# Each WebSocket may send this many messages per window, then it is closed with 4008 (lila-ws's
# figure for a play socket, where it closes with 1008). Browser tests that click faster than any
# person raise it.
SOCKET_RATE_LIMIT_MESSAGES = int(os.environ.get("SOCKET_RATE_LIMIT_MESSAGES", "100"))
SOCKET_RATE_LIMIT_WINDOW_SECONDS = float(os.environ.get("SOCKET_RATE_LIMIT_WINDOW_SECONDS", "20"))
# Open sockets per signed-in user and per client address, across all Daphne processes
# (accounts/socket_limits.py); 0 switches a cap off. An address may be a whole school's NAT.
SOCKETS_PER_USER = int(os.environ.get("SOCKETS_PER_USER", "30"))
SOCKETS_PER_ADDRESS = int(os.environ.get("SOCKETS_PER_ADDRESS", "200"))
# Snapshots a match socket may ask for per minute (each is a database read on the threads that
# also run players' moves); resynchronisations the server starts itself are not counted.
SNAPSHOT_REQUESTS_PER_MINUTE = int(os.environ.get("SNAPSHOT_REQUESTS_PER_MINUTE", "20"))
# The computer's pace: seconds before each step of a bot's turn, and before its first.
BOT_STEP_SECONDS = float(os.environ.get("BOT_STEP_SECONDS", "0.6"))
BOT_THINK_SECONDS = float(os.environ.get("BOT_THINK_SECONDS", "1.0"))
# Guests (accounts/guests.py): how many one client address may create per hour, and how long an
# unused guest account is kept.
GUESTS_PER_ADDRESS_PER_HOUR = int(os.environ.get("GUESTS_PER_ADDRESS_PER_HOUR", "10"))
GUEST_UNUSED_DAYS = int(os.environ.get("GUEST_UNUSED_DAYS", "30"))
# A player whose last socket to an active match closed has this long to come back before the
# opponent may claim the match (reason `abandoned`; docs/rules.md, Platform rules, Disconnects).
RECONNECT_WINDOW_SECONDS = int(os.environ.get("RECONNECT_WINDOW_SECONDS", "60"))
# Quick pairing (pairing/): a waiting player whose Play page has not been seen for this long
# (socket closed, network gone) leaves the pool.
POOL_GONE_SECONDS = float(os.environ.get("POOL_GONE_SECONDS", "6"))
# A direct challenge lapses after this long unanswered.
DIRECT_CHALLENGE_SECONDS = int(os.environ.get("DIRECT_CHALLENGE_SECONDS", "120"))
# Private invite links a player may create per hour.
PRIVATE_CHALLENGES_PER_HOUR = int(os.environ.get("PRIVATE_CHALLENGES_PER_HOUR", "20"))
# New post-match analyses a user may ask for per hour (analysis/services.py); asking for one
# already stored or queued is free.
ANALYSIS_REQUESTS_PER_HOUR = int(os.environ.get("ANALYSIS_REQUESTS_PER_HOUR", "10"))
# Chat: at most CHAT_MESSAGES_PER_WINDOW messages per user in any
# CHAT_WINDOW_SECONDS, across all their tabs and matches (chat/services.py).
CHAT_MESSAGES_PER_WINDOW = int(os.environ.get("CHAT_MESSAGES_PER_WINDOW", "5"))
CHAT_WINDOW_SECONDS = float(os.environ.get("CHAT_WINDOW_SECONDS", "10"))
# Tournaments players may create per day (tournaments/services/players.py).
TOURNAMENTS_PER_PLAYER_PER_DAY = int(os.environ.get("TOURNAMENTS_PER_PLAYER_PER_DAY", "3"))
# Reports: at most this many per reporter in 24 hours (moderation/services.py).
REPORTS_PER_DAY = int(os.environ.get("REPORTS_PER_DAY", "10"))
# A player's block list is capped (each block is read by every chat socket of theirs).
MAX_BLOCKS = int(os.environ.get("MAX_BLOCKS", "500"))

# --- Face to face at the table (calls/): WebRTC between the two players ----------------------
# ICE servers the players' browsers use (calls/ice.py). STUN finds each browser's public address;
# TURN relays the media of players behind symmetric NAT (README "Production", deploy/coturn/).
# TURN passwords are never static: each player of each match gets a username
# "<expiry>:<match>-<user>" and the base64 HMAC-SHA1 of it under CALL_TURN_SECRET, coturn's
# `use-auth-secret` (its `static-auth-secret` is the same value), valid CALL_TURN_TTL_SECONDS.
CALL_STUN_URLS = env_list("CALL_STUN_URLS")
CALL_TURN_URLS = env_list("CALL_TURN_URLS")
CALL_TURN_SECRET = os.environ.get("CALL_TURN_SECRET", "")
CALL_TURN_TTL_SECONDS = int(os.environ.get("CALL_TURN_TTL_SECONDS", "14400"))
if CALL_TURN_URLS and not CALL_TURN_SECRET:
    raise ImproperlyConfigured(
        "CALL_TURN_URLS needs CALL_TURN_SECRET (coturn's static-auth-secret)."
    )
# Signalling frames (offers, answers, candidates, media states, hang-ups) one match socket may
# relay per window; more are refused with `rate_limited` and the socket stays open.
CALL_SIGNALS_PER_WINDOW = int(os.environ.get("CALL_SIGNALS_PER_WINDOW", "60"))
CALL_WINDOW_SECONDS = float(os.environ.get("CALL_WINDOW_SECONDS", "10"))

# --- Client addresses behind reverse proxies (config/client_address.py) -------------------------
# How many proxies in front of Daphne append to X-Forwarded-For (nginx in deploy/: 1). 0 trusts
# none: the connection's peer is the client. allauth reads REMOTE_ADDR, which is already resolved.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
ALLAUTH_TRUSTED_PROXY_COUNT = 0

# --- /healthz (config/health.py) ------------------------------------------------------------------
# Anyone gets the overall status; the details go to staff and to these addresses (a monitor).
HEALTHZ_ALLOWED_IPS = env_list("HEALTHZ_ALLOWED_IPS", "127.0.0.1,::1")
# The probes run at most once per this many seconds per site, whoever asks.
HEALTHZ_CACHE_SECONDS = float(os.environ.get("HEALTHZ_CACHE_SECONDS", "5"))

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
# Password hashing stays Django's default (PBKDF2, 1,000,000 iterations in Django 5.2). A test run
# hashes thousands of throwaway passwords at about 0.65 s each, so `config.launcher test` sets
# NARDY_FAST_PASSWORD_HASHER and its processes hash with MD5 first (still checking any stored
# PBKDF2 hash). Honoured only with DEBUG on: a production process keeps PBKDF2 even if the
# variable leaks into its environment (tests/config/test_settings.py).
if DEBUG and env_bool("NARDY_FAST_PASSWORD_HASHER", False):
    PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        *global_settings.PASSWORD_HASHERS,
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

# --- Security (production) ---------------------------------------------------------------------
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# Daphne runs behind a TLS-terminating reverse proxy that sets X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if not DEBUG else None
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# HSTS is opt-in: once a browser has seen it, the site cannot go back to plain HTTP for that long.
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = []
if SECURE_HSTS_SECONDS == 0:
    # The operator has not opted in to HSTS (see README "Production"); that is a choice, not a slip.
    SILENCED_SYSTEM_CHECKS.append("security.W004")
elif not SECURE_HSTS_INCLUDE_SUBDOMAINS or not SECURE_HSTS_PRELOAD:
    SILENCED_SYSTEM_CHECKS += ["security.W005", "security.W021"]

# /metrics (config/metrics_view.py): who may read it. Addresses or networks; a token as well,
# for a scraper on another machine (Authorization: Bearer <token>).
METRICS_ALLOWED_IPS = env_list("METRICS_ALLOWED_IPS", "127.0.0.1,::1")
try:
    METRICS_ALLOWED_NETWORKS = [ipaddress.ip_network(item) for item in METRICS_ALLOWED_IPS]
except ValueError as error:
    raise ImproperlyConfigured(f"METRICS_ALLOWED_IPS: {error}") from None
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")

# LOG_FORMAT=json (production, deploy/nardy.env.example): one JSON object per line, with the
# match and user of the socket on every line logged while it plays (config/log_format.py).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "plain")
if LOG_FORMAT not in {"plain", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be plain or json, got {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "config.log_format.JsonFormatter"},
    },
    "filters": {"play": {"()": "config.log_format.PlayContextFilter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["play"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# Test-only dice seam (games/dice.py): honoured only when DEBUG is on AND this is set; a
# production process (DEBUG=0) refuses to start with it (see games/apps.py).
NARDY_TEST_DICE = env_bool("NARDY_TEST_DICE", False)
if NARDY_TEST_DICE and not DEBUG:
    raise ImproperlyConfigured("NARDY_TEST_DICE cannot be switched on in production (DEBUG=0).")
