"""X-Forwarded-For is trusted only as far as our own proxies wrote it (Daphne's
--proxy-headers took the leftmost entry, which the client writes, so rotating it defeated
allauth's per-address limits)."""

import pytest

from config.client_address import TrustedProxyMiddleware, forwarded_client
from config.launcher import server_commands

HEADER = b"x-forwarded-for"


@pytest.mark.parametrize(
    ("headers", "trusted", "expected"),
    [
        ([(HEADER, b"6.6.6.6")], 0, None),  # no proxy configured: the header is the client's
        ([(HEADER, b"6.6.6.6, 198.51.100.7")], 1, "198.51.100.7"),  # nginx appended the peer
        ([(HEADER, b"6.6.6.6, 198.51.100.7, 10.0.0.2")], 2, "198.51.100.7"),
        ([(HEADER, b"6.6.6.6"), (HEADER, b"198.51.100.7")], 1, "198.51.100.7"),  # two lines
        ([(HEADER, b"198.51.100.7")], 2, None),  # fewer entries than proxies: not via them
        ([(HEADER, b"6.6.6.6, not-an-address")], 1, None),
        ([(HEADER, b"2001:db8::1")], 1, "2001:db8::1"),
        ([], 1, None),
    ],
)
def test_forwarded_client(headers, trusted, expected):
    assert forwarded_client(headers, trusted) == expected


async def test_the_middleware_sets_the_scope_client_for_pages_and_sockets(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["client"])

    middleware = TrustedProxyMiddleware(app)
    for kind in ("http", "websocket"):
        scope = {"type": kind, "client": ("10.0.0.1", 5000),
                 "headers": [(HEADER, b"1.1.1.1, 198.51.100.7")]}  # fmt: skip
        await middleware(scope, None, None)
        await middleware({**scope, "headers": []}, None, None)
    assert seen == [("198.51.100.7", 0), ("10.0.0.1", 5000)] * 2
    settings.TRUSTED_PROXY_COUNT = 0
    await middleware(scope, None, None)
    assert seen[-1] == ("10.0.0.1", 5000)


def test_daphne_does_not_take_proxy_headers_itself():
    assert "--proxy-headers" not in server_commands(port=8000, beat=False)["daphne"]
