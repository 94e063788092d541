"""Which language a request, a socket or an email speaks (one of the six in settings.LANGUAGES).

The order: the signed-in user's saved choice, then the visitor's cookie (set by the selector), then
the browser's Accept-Language, then settings.LANGUAGE_CODE. Django's LocaleMiddleware does the last
three for pages; sockets have no HttpRequest, so `language_for_scope` does them from the ASGI scope.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import get_supported_language_variant


def supported_language(code: str | None) -> str | None:
    """`code` as one of settings.LANGUAGES (``sr-Latn-RS`` -> ``sr-latn``), or None."""
    if not code or len(code) > 32:
        return None
    try:
        return get_supported_language_variant(code.strip().lower())
    except LookupError:
        return None


def user_language(user: Any) -> str | None:
    """The language a user chose, or None (anonymous, or following the browser)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return supported_language(getattr(user, "language", ""))


def accept_language(header: str) -> str | None:
    """The first supported language of an Accept-Language header, by quality (RFC 9110 12.5.4)."""
    weighted: list[tuple[float, int, str]] = []
    for position, item in enumerate(header.split(",")[:32]):
        code, _, parameters = item.strip().partition(";")
        quality = 1.0
        if parameters.strip().startswith("q="):
            try:
                quality = float(parameters.strip()[2:])
            except ValueError:
                continue
        if code and code != "*" and quality > 0:
            weighted.append((-quality, position, code))
    for _quality, _position, code in sorted(weighted):
        language = supported_language(code)
        if language:
            return language
    return None


def language_for_scope(scope: dict[str, Any]) -> str:
    """The language of a socket: the user's, the cookie's, the browser's, or the default."""
    chosen = user_language(scope.get("user"))
    if chosen:
        return chosen
    cookie = supported_language((scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME))
    if cookie:
        return cookie
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            found = accept_language(value.decode("latin-1"))
            if found:
                return found
    return settings.LANGUAGE_CODE
