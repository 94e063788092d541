import json

import pytest
import redis

from config import health
from tests.factories import make_user


@pytest.fixture(autouse=True)
def _fresh_health_cache(monkeypatch):
    monkeypatch.setattr(health, "_cached", None)


@pytest.fixture(autouse=True)
def _no_wait_for_an_absent_worker(request, monkeypatch):
    """In this process no Celery worker answers unless the test starts one: every check would
    wait the ping's whole bound (1.5 s) for nothing, 8 s of one test's 4 checks."""
    if "celery_worker_process" not in request.fixturenames:
        monkeypatch.setattr(health, "CELERY_PING_SECONDS", 0.05)


@pytest.mark.django_db(transaction=True)
def test_healthz_all_up(client, celery_worker_process):
    response = client.get("/healthz")
    body = json.loads(response.content)
    assert response.status_code == 200, body
    assert body["checks"] == {
        "database": "ok",
        "redis": "ok",
        "channel_layer": "ok",
        "celery": "ok",
    }


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_healthz_503_names_the_missing_worker(test_database_name):
    """A real Daphne whose site has no Celery worker (its own Redis prefix, so no worker of this
    run consumes its queue or answers its pings): 503 naming exactly the worker."""
    import sys
    import urllib.error
    import urllib.request

    from config import processes
    from tests.conftest import child_environment

    port = processes.free_port()
    environment = child_environment(
        test_database_name, REDIS_PREFIX="nardy-no-worker", CELERY_QUEUE="nardy-no-worker"
    )
    process = processes.start(
        [sys.executable, "-m", "config.server", "-b", "127.0.0.1", "-p", str(port),
         "web.asgi:application"],
        env=environment,
    )  # fmt: skip
    answers = []

    def fetch() -> bool:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10)
        except urllib.error.HTTPError as error:
            answers.append((error.code, json.loads(error.read())))
            return True
        answers.append((200, None))
        return True

    try:
        processes.wait_until(fetch, timeout=60, what="Daphne", processes=process)
    finally:
        processes.stop(process)
    status, body = answers[-1]
    assert status == 503
    assert body["failing"] == ["celery"]
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] == "ok"


@pytest.mark.django_db
def test_healthz_details_only_for_staff_and_allowed_addresses(client, settings):
    settings.HEALTHZ_ALLOWED_IPS = ["192.0.2.1"]
    body = json.loads(client.get("/healthz").content)  # the test client is 127.0.0.1
    assert set(body) == {"status"} and body["status"] in ("ok", "failing")
    body = json.loads(client.get("/healthz", REMOTE_ADDR="192.0.2.1").content)
    assert set(body) == {"status", "failing", "checks"}
    client.force_login(make_user("staffer", is_staff=True))
    assert "checks" in json.loads(client.get("/healthz").content)


@pytest.mark.django_db
def test_healthz_subscribes_nothing_and_probes_once_per_period(client, settings, monkeypatch):
    """Before: every anonymous call subscribed a channel-layer channel that stayed subscribed,
    and waited a full second for a Celery ping."""
    runs = []
    original = health.run_checks

    def counted():
        runs.append(1)
        return original()

    settings.HEALTHZ_CACHE_SECONDS = 60
    monkeypatch.setattr(health, "run_checks", counted)
    server = redis.Redis.from_url(settings.REDIS_URL)
    try:
        before = len(server.pubsub_channels(f"{settings.REDIS_PREFIX}*"))
        for _ in range(20):
            client.get("/healthz")
        assert len(runs) == 1
        settings.HEALTHZ_CACHE_SECONDS = 0
        for _ in range(3):
            client.get("/healthz")
        assert len(runs) == 4
        assert len(server.pubsub_channels(f"{settings.REDIS_PREFIX}*")) == before
    finally:
        server.close()


@pytest.mark.django_db
def test_a_redis_server_of_the_sockets_that_is_down_fails_the_redis_check(settings):
    """With the sockets' messages over several servers (docs/scaling.md "Redis"), each is pinged:
    a match whose channel hashes to a dead one would hear nothing."""
    settings.REDIS_CHANNEL_URLS = [settings.REDIS_URL, "unix:///tmp/nardy-no-such-redis.sock?db=0"]
    results = health.run_checks()
    assert results["redis"].startswith("error: RuntimeError: server 2 of 2:"), results
    settings.REDIS_CHANNEL_URLS = [settings.REDIS_URL]
    assert health.run_checks()["redis"] == "ok"
