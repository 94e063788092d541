"""The replica router in the test process (config/db_router.py): with no replica nothing
changes; a replica that cannot be reached, or a server that is not a replica, sends the
read-only pages to the primary; a write gives the browser the `primary_reads` cookie. Reads from
a real streaming replica, its lag and its stop are proven on the production topology
(tests/integration/test_production_scaling.py)."""

from __future__ import annotations

import os
import time
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connections, transaction

from accounts.models import User
from config import db_router
from config.db_router import AFTER_WRITE_COOKIE, ReplicaRouter, replica_health
from tests.factories import make_user

READ_ONLY_PAGES = ("/", "/leaderboard/", "/watch/")
NOWHERE = "postgres://postgres@%2Ftmp%2Fnardy-no-such-replica/nardy"


@pytest.mark.django_db
def test_without_a_replica_pages_and_writes_are_as_before(client, settings):
    assert settings.DATABASE_REPLICA_URL == ""
    assert "replica" not in settings.DATABASES
    assert not getattr(settings, "DATABASE_ROUTERS", [])
    make_user("alone")
    for path in (*READ_ONLY_PAGES, "/@/alone"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert AFTER_WRITE_COOKIE not in response.cookies
    response = client.post("/accounts/login/", {"login": "alone", "password": "wrong"})
    assert AFTER_WRITE_COOKIE not in response.cookies


@pytest.mark.django_db
def test_an_unreachable_replica_sends_the_pages_to_the_primary(client, settings):
    settings.DATABASE_REPLICA_URL = NOWHERE
    make_user("seen")
    started = time.monotonic()
    health = replica_health()
    probed = time.monotonic() - started
    assert not health.usable and health.reason.startswith("unreachable"), health
    for path in (*READ_ONLY_PAGES, "/@/seen"):
        assert client.get(path).status_code == 200, path
    print(f"\nan unreachable replica found so in {probed * 1000:.1f} ms")


@pytest.mark.django_db
def test_a_server_that_is_not_a_replica_is_not_read(client, settings):
    # The primary itself: not in recovery, so never taken for a replica. Its test database, the
    # one this run made: DATABASE_URL's own database exists only where the run's servers are
    # embedded (on given servers the tests never create it).
    primary = urlsplit(os.environ["DATABASE_URL"])
    test_database = connections["default"].settings_dict["NAME"]
    settings.DATABASE_REPLICA_URL = urlunsplit(primary._replace(path=f"/{test_database}"))
    health = replica_health()
    assert not health.usable and health.reason == "not a replica (promoted?)", health


@pytest.mark.django_db
def test_a_write_makes_the_browser_read_the_primary_for_a_while(client, settings):
    settings.DATABASE_REPLICA_URL = NOWHERE
    make_user("writer", password="secret-password-1")
    response = client.get("/leaderboard/")
    assert AFTER_WRITE_COOKIE not in response.cookies  # a read writes nothing
    response = client.post("/accounts/login/", {"login": "writer", "password": "secret-password-1"})
    stamp = response.cookies[AFTER_WRITE_COOKIE]
    assert stamp["max-age"] == settings.REPLICA_AFTER_WRITE_SECONDS
    assert stamp["httponly"] and stamp["samesite"] == "Lax"
    # A refused write (a wrong password) is a POST too: the cookie only costs primary reads.
    response = client.post("/accounts/login/", {"login": "writer", "password": "wrong"})
    assert AFTER_WRITE_COOKIE in response.cookies


@pytest.mark.django_db(transaction=True)
def test_the_router_reads_the_primary_outside_the_pages_and_writes_there_always():
    router = ReplicaRouter()
    assert router.db_for_read(User) == "default"
    assert router.db_for_write(User) == "default"
    assert router.allow_migrate("default", "accounts") is True
    assert router.allow_migrate("replica", "accounts") is False
    # Inside a read-only page but in a transaction (a lock): the primary.
    token = db_router._reading_replica.set(True)
    try:
        assert router.db_for_read(User) == "replica"
        with transaction.atomic():
            assert connections["default"].in_atomic_block
            assert router.db_for_read(User) == "default"
    finally:
        db_router._reading_replica.reset(token)
