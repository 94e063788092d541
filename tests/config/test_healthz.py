import json

import pytest


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


@pytest.mark.django_db(transaction=True)
def test_healthz_503_names_the_missing_worker(test_database_name):
    """A real Daphne whose site has no Celery worker (its own Redis prefix, so no worker of this
    run consumes its queue or answers its pings): 503 naming exactly the worker."""
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    from tests.conftest import ROOT, child_environment, free_port, stop_process, wait_for

    port = free_port()
    environment = child_environment(
        test_database_name, REDIS_PREFIX="nardy-no-worker", CELERY_QUEUE="nardy-no-worker"
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "config.asgi:application"],
        cwd=ROOT, env=environment,
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
        wait_for(fetch, 60, "Daphne", process)
    finally:
        stop_process(process)
    status, body = answers[-1]
    assert status == 503
    assert body["failing"] == ["celery"]
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] == "ok"
