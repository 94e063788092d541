"""The production topology, proven (`make prod-check`; docs/operations.md, "Production"): Debian's
nginx with TLS
in front of two Daphne processes on unix sockets, a Celery worker and beat, all with DEBUG=0
(bench/topology.py renders deploy/nginx/nardy.conf). Everything here goes through nginx over
HTTPS, as a browser would."""

from __future__ import annotations

import http.client
import re
import secrets
import socket
import ssl
import time
from http.cookies import SimpleCookie
from urllib.parse import urlencode

import pytest

from bench.clients import percentile
from bench.live_matches import LiveMatches, metric_total
from bench.topology import SERVER_NAME

pytestmark = pytest.mark.integration


def https(production, method: str, path: str, *, body: str | None = None, headers=None):
    connection = http.client.HTTPSConnection(
        SERVER_NAME, production.https_port, timeout=20, context=production.ssl_context()
    )
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response, response.read()
    finally:
        connection.close()


def cookies_of(response) -> SimpleCookie:
    jar = SimpleCookie()
    for header in response.headers.get_all("Set-Cookie") or []:
        jar.load(header)
    return jar


def test_pages_answer_over_https(production):
    for path in ("/", "/rules/", "/accounts/login/", "/watch/"):
        response, body = https(production, "GET", path)
        assert response.status == 200, (path, body[:300])
        assert response.getheader("Server", "").startswith("nginx")


def test_static_files_come_from_nginx_with_cache_headers(production):
    _, page = https(production, "GET", "/")
    hashed = re.search(rb"/static/css/site\.[0-9a-f]{12}\.css", page)
    assert hashed, "the page links the collectstatic (hashed) name"
    response, body = https(production, "GET", hashed.group().decode())
    assert response.status == 200 and b"{" in body
    # nginx's header (deploy/nginx/nardy.conf), not WhiteNoise's "max-age=315360000, public, ...".
    assert response.getheader("Cache-Control") == "public, max-age=31536000, immutable"
    assert response.getheader("X-Nardy-Upstream") is None  # not proxied

    response, _ = https(production, "GET", "/static/css/site.css")
    assert response.getheader("Cache-Control") == "public, max-age=3600"

    response, gzipped = https(
        production, "GET", hashed.group().decode(), headers={"Accept-Encoding": "gzip"}
    )
    assert response.getheader("Content-Encoding") == "gzip"  # the .gz beside it (gzip_static)
    assert len(gzipped) < len(body)

    response, _ = https(production, "GET", "/static/css/no-such-file.css")
    assert response.status == 404


def test_plain_http_redirects_to_https(production):
    connection = http.client.HTTPConnection("127.0.0.1", production.http_port, timeout=10)
    connection.request("GET", "/rules/?lang=ro", headers={"Host": SERVER_NAME})
    response = connection.getresponse()
    connection.close()
    assert response.status == 301
    # The shipped config redirects to the default HTTPS port; the test's nginx listens elsewhere.
    assert response.getheader("Location") == f"https://{SERVER_NAME}/rules/?lang=ro"


def test_another_host_name_gets_no_tls_handshake(production):
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", production.https_port), timeout=10) as raw:
        with pytest.raises(ssl.SSLError):
            context.wrap_socket(raw, server_hostname="evil.example")


def test_daphne_sees_https_and_sets_secure_cookies(production):
    response, _ = https(production, "GET", "/accounts/login/")
    assert cookies_of(response)["csrftoken"]["secure"]


def login_csrf(production) -> tuple[str, str]:
    """The login page's CSRF cookie and form field."""
    response, page = https(production, "GET", "/accounts/login/")
    return (
        cookies_of(response)["csrftoken"].value,
        re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode(),
    )


def post_login(production, csrf: tuple[str, str], username: str, password: str):
    """The login form as a browser posts it: CSRF cookie and field, Origin and Referer."""
    cookie, field = csrf
    origin = production.base_url
    return https(
        production,
        "POST",
        "/accounts/login/",
        body=urlencode({"login": username, "password": password, "csrfmiddlewaretoken": field}),
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookie}",
            "Origin": origin,
            "Referer": f"{origin}/accounts/login/",
        },
    )


def test_login_over_https(production):
    username, password = f"login{secrets.token_hex(3)}", secrets.token_urlsafe(16)
    production.django_task("user", {"username": username, "password": password})

    csrf = login_csrf(production)
    response, body = post_login(production, csrf, username, password)
    assert response.status == 302, body[:500]
    session = cookies_of(response)["sessionid"]
    assert session["secure"] and session["httponly"]

    response, page = https(production, "GET", "/", headers={"Cookie": f"sessionid={session.value}"})
    assert response.status == 200
    assert username.encode() in page

    # A wrong password changes nothing and logs nobody in.
    response, _ = post_login(production, csrf, username, "wrong")
    assert response.status == 200 and "sessionid" not in cookies_of(response)


async def test_a_match_across_two_daphne_processes_with_a_spectator(production):
    """Two players and a spectator over wss:// through nginx; least_conn puts the second player
    on the other Daphne process, so every event crosses processes through Redis."""
    async with LiveMatches(
        production, matches=1, spectators_per_match=1, step_interval=0.3, connect_concurrency=1
    ) as live:
        import asyncio

        # Until enough steps went round (asserted below), not a fixed time.
        deadline = time.monotonic() + 60
        while sum(match.steps_acked for match in live.client.matches) < 6:
            assert time.monotonic() < deadline, "fewer than 6 steps acknowledged in 60 s"
            await asyncio.sleep(0.05)
        _, text = await asyncio.to_thread(production.get, "/metrics")
    text = text.decode()
    assert metric_total(text, "nardy_sockets_open", kind="match") == 3
    for index in (1, 2):  # both processes hold some (the gauge has a pid label per process)
        assert metric_total(text, "nardy_sockets_open", kind="match", process=f"daphne-{index}")
    report = live.report
    result = report["result"]
    player_0, player_1, spectator = next(iter(result["finals"].values()))
    assert player_0["upstream"] and player_1["upstream"] and spectator["upstream"]
    assert player_0["upstream"] != player_1["upstream"], "the players share one Daphne process"
    assert result["errors"] == {} and result["unexpected_closes"] == {}
    assert report["acked_steps"] >= 5
    assert report["lost_steps"] == 0 and report["doubled_steps"] == 0
    assert report["inconsistent"] == []
    # Every step reached the opponent and the spectator (two receivers per step).
    assert result["deliveries_missing"] == 0
    assert result["deliveries_seen"] >= 2 * report["acked_steps"] - 2
    print(
        f"match through nginx: {report['acked_steps']} steps, round trip p50="
        f"{percentile(sorted(result['rtt_ms']), 0.5):.1f} ms, upstreams "
        f"{player_0['upstream']} / {player_1['upstream']} / {spectator['upstream']}"
    )


async def test_a_websocket_from_another_origin_is_refused(production):
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus) as refused:
        async with connect(
            f"{production.websocket_url}/ws/me/",
            origin="https://evil.example",
            ssl=production.ssl_context(),
        ):
            pass
    assert refused.value.response.status_code == 403


def test_metrics_sum_every_process(production):
    """One scrape through nginx shows both Daphne processes' and the worker's figures."""
    status, body = production.get("/metrics")
    assert status == 200
    text = body.decode()
    # Counted in the worker's pool processes:
    sweeps = metric_total(
        text, "nardy_celery_tasks_total", task="games.sweep_deadlines", outcome="success"
    )
    assert sweeps >= 1
    assert metric_total(text, "nardy_socket_commands_total", type="step", result="ok") >= 5
    assert metric_total(text, "nardy_http_request_seconds_count", method="GET", route="rules")
