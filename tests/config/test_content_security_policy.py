"""The Content-Security-Policy header (config/content_security_policy.py): on every page and
answer, strict (no 'unsafe-inline', no other origin), with the sockets' origin of the page's own
host and scheme. Chromium checks that the pages keep to it:
tests/e2e/test_content_security_policy.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from config.content_security_policy import HEADER

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, str]:
    parts = [part.strip().split(" ", 1) for part in response[HEADER].split(";")]
    return {name: value for name, value in parts}


def test_every_page_has_the_strict_policy(client):
    for url in ("/", "/rules/", reverse("account_login"), "/admin/login/", "/healthz"):
        response = client.get(url)
        policy = directives(response)
        assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'", url
        assert policy["frame-ancestors"] == "'none'" and policy["base-uri"] == "'none'"
        assert policy["form-action"] == "'self'" and policy["object-src"] == "'none'"
        assert policy["default-src"] == "'self'" and policy["img-src"] == "'self' data:"
        assert "unsafe" not in response[HEADER] and "*" not in response[HEADER]


def test_the_sockets_origin_is_the_pages_own(client, settings):
    settings.ALLOWED_HOSTS = ["nardy.example.org", "testserver"]
    plain = client.get("/", HTTP_HOST="nardy.example.org")
    assert directives(plain)["connect-src"] == "'self' ws://nardy.example.org"
    secure = client.get("/", HTTP_HOST="nardy.example.org:8443", secure=True)
    assert directives(secure)["connect-src"] == "'self' wss://nardy.example.org:8443"


def test_a_host_not_allowed_gets_its_400_and_no_socket_origin(client, settings):
    """A forged Host names no origin in the policy (and the request is refused anyway)."""
    settings.DEBUG = False
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert directives(response)["connect-src"] == "'self'"
    assert "evil" not in response[HEADER]


def test_a_header_set_by_a_view_is_kept(rf):
    from django.http import HttpResponse

    from config.content_security_policy import ContentSecurityPolicyMiddleware

    def view(request):
        response = HttpResponse("x")
        response[HEADER] = "default-src 'none'"
        return response

    response = ContentSecurityPolicyMiddleware(view)(rf.get("/"))
    assert response[HEADER] == "default-src 'none'"
