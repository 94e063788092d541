"""Per-address limits count an IPv6 client by its /64 (config/client_address.py): a subscriber
gets a whole /64 and picks addresses in it at will, so counting full addresses gave one client
unlimited guests and sockets."""

from __future__ import annotations

import secrets

import pytest
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from accounts.models import User
from config.client_address import address_bucket
from web.asgi import application

RUN = secrets.token_hex(2)  # Redis keeps its counters across runs: a fresh /64 per run


def network(number: int) -> str:
    return f"2001:db8:{RUN}:{number:x}"


@pytest.mark.parametrize(
    ("address", "bucket"),
    [
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:198.51.100.7", "198.51.100.7"),  # IPv4-mapped: the IPv4 address
        ("198.51.100.7", "198.51.100.7"),
        ("unknown", "unknown"),
        (None, None),
    ],
)
def test_an_ipv6_address_counts_as_its_64(address, bucket):
    assert address_bucket(address) == bucket


@pytest.mark.django_db
def test_guests_are_counted_per_64(client, settings):
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 2
    for host in ("1", "2"):
        response = client.__class__().post(reverse("play_now"), REMOTE_ADDR=f"{network(1)}::{host}")
        assert response.status_code == 302 and response["Location"] != reverse("home")
    before = User.objects.count()
    # A third address of the same /64 is the same client.
    response = client.post(reverse("play_now"), REMOTE_ADDR=f"{network(1)}:9:9:9:{RUN}")
    assert response["Location"] == reverse("home") and User.objects.count() == before
    # Another /64 is another client.
    fresh = client.__class__()
    fresh.post(reverse("play_now"), REMOTE_ADDR=f"{network(2)}::1")
    assert "_auth_user_id" in fresh.session


@pytest.mark.django_db
def test_failed_logins_are_counted_per_64(client, settings):
    """allauth's own limits (failed logins, sign-ups) already count per /64
    (ALLAUTH_RATE_LIMIT_IPV6_PREFIX): kept so, whatever the adapter does with addresses."""
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "3/5m/ip"}
    refused = []
    for host in range(1, 7):
        response = client.post(
            reverse("account_login"),
            {"login": f"nobody{host}", "password": "wrong"},
            REMOTE_ADDR=f"{network(3)}::{host:x}",
        )
        refused.append("too many failed login attempts" in response.content.decode().lower())
    assert refused == [False, False, False, True, True, True]


@pytest.mark.django_db(transaction=True)
async def test_sockets_are_counted_per_64(settings):
    settings.SOCKETS_PER_ADDRESS = 2
    settings.TRUSTED_PROXY_COUNT = 1

    async def lobby_from(address: str) -> WebsocketCommunicator:
        socket = WebsocketCommunicator(application, "/ws/lobby/", headers=[
            (b"origin", b"http://localhost"), (b"host", b"localhost"),
            (b"x-forwarded-for", address.encode()),
        ])  # fmt: skip
        assert (await socket.connect())[0]
        return socket

    first, second = [await lobby_from(f"{network(4)}::{host}") for host in (1, 2)]
    refused = await lobby_from(f"{network(4)}:ffff::3")
    assert (await refused.receive_json_from(timeout=5))["code"] == "too_many_sockets"
    other = await lobby_from(f"{network(5)}::1")
    assert (await other.receive_json_from(timeout=5)).get("code") != "too_many_sockets"
    for socket in (first, second, refused, other):
        await socket.disconnect()
