"""coturn's configuration (calls/turnserver.py, `manage.py turnserver_conf`): the example in
deploy/coturn/ is exactly what the command writes for its arguments; the secret is the site's
and must be one plain line; the relay may reach no private, loopback or link-local address.
That coturn really runs with it and relays is tests/integration/test_turn.py (make prod-check)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from calls.turnserver import TurnServer, turnserver_conf

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "coturn" / "turnserver.conf"
EXAMPLE_ARGUMENTS = [
    "--realm", "nardy.example.org", "--external-ip", "203.0.113.7",
    "--cert", "/etc/letsencrypt/live/nardy.example.org/fullchain.pem",
    "--pkey", "/etc/letsencrypt/live/nardy.example.org/privkey.pem",
]  # fmt: skip


def written(*arguments: str) -> str:
    out = io.StringIO()
    call_command("turnserver_conf", *arguments, stdout=out)
    return out.getvalue()


def test_the_example_in_deploy_is_what_the_command_writes(settings):
    settings.CALL_TURN_SECRET = "change-me"
    assert written(*EXAMPLE_ARGUMENTS) == EXAMPLE.read_text()


def test_the_secret_is_the_sites_and_turn_rest_credentials_only(settings):
    settings.CALL_TURN_SECRET = "north-wind"
    lines = written("--realm", "nardy.test").splitlines()
    assert "use-auth-secret" in lines and "static-auth-secret=north-wind" in lines
    assert not any(
        line.startswith(("user=", "lt-cred-mech", "allow-loopback-peers")) for line in lines
    )
    # Without a certificate: no TLS listener at all (not one with a missing key).
    assert "no-tls" in lines and not any(line.startswith("cert=") for line in lines)


@pytest.mark.parametrize("secret", ["", "two\nlines", "a#comment"])
def test_an_empty_or_multi_line_secret_is_refused(settings, secret):
    settings.CALL_TURN_SECRET = secret
    with pytest.raises(CommandError):
        written("--realm", "nardy.test")


def test_the_relay_reaches_no_private_loopback_or_link_local_address():
    lines = turnserver_conf(TurnServer(realm="r", secret="s")).splitlines()
    denied = {line.removeprefix("denied-peer-ip=") for line in lines if "denied-peer-ip" in line}
    for needed in ("10.0.0.0-10.255.255.255", "172.16.0.0-172.31.255.255",
                   "192.168.0.0-192.168.255.255", "127.0.0.0-127.255.255.255",
                   "169.254.0.0-169.254.255.255", "::1",
                   "fc00::-fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"):  # fmt: skip
        assert needed in denied
    assert {"no-multicast-peers", "no-cli", "fingerprint"} <= set(lines)


def test_quotas_per_person_and_in_total_and_their_options(settings):
    settings.CALL_TURN_SECRET = "north-wind"
    lines = written("--realm", "nardy.test").splitlines()
    assert "user-quota=12" in lines and "total-quota=1200" in lines
    lines = written("--realm", "nardy.test", "--user-quota", "6", "--total-quota", "600")
    assert {"user-quota=6", "total-quota=600"} <= set(lines.splitlines())


@pytest.mark.parametrize(
    "quotas",
    [("--user-quota", "0"), ("--user-quota", "-3"), ("--total-quota", "0"),
     ("--user-quota", "13", "--total-quota", "12"), ("--user-quota", "twelve"),
     ("--total-quota", "1e3"), ("--user-quota", "")],
)  # fmt: skip
def test_a_quota_of_nothing_none_or_above_the_total_is_refused(settings, quotas):
    """coturn reads 0 as no quota at all: never written; nor a person allowed more than all."""
    settings.CALL_TURN_SECRET = "north-wind"
    with pytest.raises(CommandError):
        written("--realm", "nardy.test", *quotas)
