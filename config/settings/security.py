"""Security: client addresses behind proxies, /healthz and /metrics access, HTTPS, cookies and
headers in production (docs/security.md)."""

from __future__ import annotations

import ipaddress
import os

from django.core.exceptions import ImproperlyConfigured

from .base import DEBUG, env_bool, env_list

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
    # The operator has not opted in to HSTS (see docs/operations.md "Production"); that is a
    # choice, not a slip.
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
