"""The client's address, trusting `X-Forwarded-For` only as far as our own proxies wrote it.

Daphne's `--proxy-headers` takes the leftmost `X-Forwarded-For` entry, which the client writes
itself: rotating it defeated allauth's per-address limits. Here the header is read only
when settings.TRUSTED_PROXY_COUNT > 0, and then the entry that many places from the right, the
one our outermost proxy appended (nginx: `proxy_set_header X-Forwarded-For
$proxy_add_x_forwarded_for`). With no proxy (`make run`) the count is 0 and the peer address of
the connection is the client.

`TrustedProxyMiddleware` rewrites the ASGI scope's `client` for HTTP and WebSocket alike, so
Django's REMOTE_ADDR (allauth's rate limits read it; ALLAUTH_TRUSTED_PROXY_COUNT stays 0 because
the address is already resolved here) and the socket limits see the same address.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def forwarded_client(headers: list[tuple[bytes, bytes]], trusted_proxies: int) -> str | None:
    """The address our outermost trusted proxy saw, or None when the header cannot say."""
    if trusted_proxies <= 0:
        return None
    values = [value for name, value in headers if name.lower() == b"x-forwarded-for"]
    if not values:
        return None
    # Several header lines are one comma-separated list (RFC 9110 §5.3).
    entries = [part.strip() for part in b",".join(values).decode("latin-1").split(",")]
    if len(entries) < trusted_proxies:
        return None  # not written by all our proxies: the peer address stands
    candidate = entries[-trusted_proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None


def address_bucket(address: str | None) -> str | None:
    """What a per-address limit counts: an IPv4 address, or the /64 network of an IPv6 one.

    An IPv6 subscriber normally gets a whole /64 (RFC 6177) and picks addresses in it at will,
    so counting full IPv6 addresses gave one client unlimited guests, sockets and sign-up
    attempts. An IPv4-mapped IPv6 address counts as its IPv4 address; anything that is not an
    address is returned as it is."""
    if not address:
        return address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network((ip, 64), strict=False))
    return str(ip)


def client_address(scope: dict[str, Any]) -> str | None:
    client = scope.get("client")
    return client[0] if client else None


class TrustedProxyMiddleware:
    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            address = forwarded_client(scope.get("headers", []), settings.TRUSTED_PROXY_COUNT)
            if address is not None:
                scope = dict(scope, client=(address, 0))
        return await self.app(scope, receive, send)
