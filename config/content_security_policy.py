"""The Content-Security-Policy header of every response (docs/security.md, "Security notes").

Scripts, styles, fonts and connections come from the site itself only; images from the site or
`data:` URLs (the tab's icons, static/js/tab.js, and the two-factor QR code); the sockets are the
page's own host (`ws:` or `wss:` as the page came). No page may be framed, change its base URL,
send a form elsewhere or embed a plugin. There is no 'unsafe-inline': every script is a static
ES module, every handler is attached by one, and a `<script type="application/json">` strings
block is data, never run, so the policy does not touch it (W3C CSP Level 3, "script-src" applies
to script elements whose type is JavaScript). tests/e2e/test_content_security_policy.py fails on
any violation of the main pages, the admin's and allauth's in Chromium.

Under DEBUG, Django's own error pages (their styles and scripts are inline) are left without it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"
FIXED = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)


def policy(request: HttpRequest) -> str:
    """The policy for this request: the fixed directives and the sockets' origin."""
    connect = "connect-src 'self'"
    try:
        host = request.get_host()
    except DisallowedHost:  # answered with 400 already; 'self' alone is the strictest
        host = None
    if host:
        # CSP Level 3 lets 'self' match the page's own ws:/wss: origin, older browsers did not.
        connect += f" {'wss' if request.is_secure() else 'ws'}://{host}"
    return "; ".join((*FIXED, connect))


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.DEBUG and response.status_code >= 400:
            return response  # the technical error pages, which production never shows
        response.headers.setdefault(HEADER, policy(request))
        return response
