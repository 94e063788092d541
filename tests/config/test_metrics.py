"""/metrics (config/metrics_view.py) answers only allowed readers; the figures it shows move with
what happens; JSON log lines carry the playing socket's match and user (config/log_format.py)."""

from __future__ import annotations

import json
import logging

import pytest

from bench.live_matches import metric_total
from config import metrics
from config.log_format import JsonFormatter, PlayContextFilter, bind_play, play_logging
from tests.config.test_settings import PRODUCTION, manage


def scrape(client, **headers) -> tuple[int, str]:
    response = client.get("/metrics", **headers)
    return response.status_code, response.content.decode()


def test_metrics_for_an_allowed_address(client, settings):
    settings.METRICS_ALLOWED_NETWORKS = []
    assert scrape(client, REMOTE_ADDR="127.0.0.1")[0] == 404
    import ipaddress

    settings.METRICS_ALLOWED_NETWORKS = [ipaddress.ip_network("10.1.0.0/16")]
    assert scrape(client, REMOTE_ADDR="10.2.0.1")[0] == 404
    status, text = scrape(client, REMOTE_ADDR="10.1.3.4")
    assert status == 200
    assert "nardy_http_request_seconds" in text and "nardy_socket_commands_total" in text


@pytest.mark.parametrize(
    "header", ["", "Bearer", "Bearer wrong", "bearer s3cret-token", "Bearer s3cret-token "]
)
def test_metrics_token_must_match_exactly(client, settings, header):
    settings.METRICS_ALLOWED_NETWORKS = []
    settings.METRICS_TOKEN = "s3cret-token"
    assert scrape(client, HTTP_AUTHORIZATION=header)[0] == 404
    assert scrape(client, HTTP_AUTHORIZATION="Bearer s3cret-token")[0] == 200


def test_no_token_set_means_no_token_accepted(client, settings):
    settings.METRICS_ALLOWED_NETWORKS = []
    settings.METRICS_TOKEN = ""
    assert scrape(client, HTTP_AUTHORIZATION="Bearer ")[0] == 404


def test_a_forwarded_address_counts_only_through_trusted_proxies(client, settings):
    """X-Forwarded-For from the client itself is not believed (TRUSTED_PROXY_COUNT=0)."""
    import ipaddress

    settings.METRICS_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert response.status_code == 404


def test_requests_and_commands_are_counted(client, settings):
    import ipaddress

    settings.METRICS_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]

    _, before = scrape(client)
    client.get("/rules/")
    metrics.command_done("step", None, 0.004)
    metrics.command_done("step", type("Refusal", (Exception,), {"code": "stale_version"})(), 0.002)
    _, after = scrape(client)

    def moved(name: str, **labels: str) -> float:
        return metric_total(after, name, **labels) - metric_total(before, name, **labels)

    assert moved("nardy_http_request_seconds_count", route="rules", status="200") == 1
    assert moved("nardy_socket_commands_total", type="step", result="ok") == 1
    assert moved("nardy_socket_commands_total", type="step", result="stale_version") == 1


@pytest.mark.integration  # starts a process
def test_bad_allowed_addresses_refuse_to_start():
    result = manage("check", **PRODUCTION, METRICS_ALLOWED_IPS="127.0.0.1,not-an-address")
    assert result.returncode != 0
    assert "METRICS_ALLOWED_IPS" in result.stderr


@pytest.mark.integration  # starts a process
def test_bad_log_format_refuses_to_start():
    result = manage("check", **PRODUCTION, LOG_FORMAT="xml")
    assert result.returncode != 0
    assert "LOG_FORMAT" in result.stderr


def test_json_log_lines_carry_the_match_and_user():
    record = logging.LogRecord("games.consumers", logging.WARNING, "", 0, "step %s", (3,), None)

    async def in_a_socket_task() -> str:
        bind_play(match_id=41, user_id=7)
        PlayContextFilter().filter(record)
        return JsonFormatter().format(record)

    import asyncio

    line = json.loads(asyncio.run(in_a_socket_task()))
    assert line["message"] == "step 3" and line["level"] == "WARNING"
    assert line["match_id"] == 41 and line["user_id"] == 7

    other = logging.LogRecord("games.tasks", logging.INFO, "", 0, "after", (), None)
    with play_logging(match_id=5):
        PlayContextFilter().filter(other)
    assert other.match_id == 5
    later = logging.LogRecord("games.tasks", logging.INFO, "", 0, "later", (), None)
    PlayContextFilter().filter(later)
    assert not hasattr(later, "match_id")  # the block ended: the next task is not match 5's
