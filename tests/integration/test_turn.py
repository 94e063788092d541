"""Debian's coturn with the configuration `manage.py turnserver_conf` writes (make prod-check):
Chromium, allowed only relayed candidates, gets one from it on the loopback with the credentials
calls/ice.py makes for a player of a match; with a credential signed by another secret, or one
whose expiry has passed, coturn gives none (it checks the HMAC and the expiry itself)."""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import time

import pytest
from django.core.management import call_command

from calls.ice import turn_credentials
from config.processes import free_port

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SECRET = "prod-check-turn-secret"
GATHER = """async ({url, username, credential}) => {
  const pc = new RTCPeerConnection({iceServers: [{urls: url, username, credential}],
                                    iceTransportPolicy: 'relay'});
  pc.createDataChannel('check');
  const found = [];
  const done = new Promise(resolve => {
    pc.onicecandidate = event => {
      if (event.candidate) found.push(event.candidate.candidate);
      else resolve();
    };
    setTimeout(resolve, 10000);
  });
  await pc.setLocalDescription(await pc.createOffer());
  await done;
  pc.close();
  return found;
}"""


@pytest.fixture
def coturn(tmp_path, settings):
    """coturn on 127.0.0.1 with the generated configuration (relay ports on the loopback too)."""
    binary = shutil.which("turnserver") or "/usr/bin/turnserver"
    if not os.path.exists(binary):
        message = "no coturn: apt-get install coturn (.ci/run installs it)"
        pytest.fail(message) if os.environ.get("CI") == "true" else pytest.skip(message)
    settings.CALL_TURN_SECRET = SECRET
    port, relay = free_port(), free_port()
    out = io.StringIO()
    call_command(
        "turnserver_conf", "--realm", "nardy.test", "--port", str(port),
        "--listening-ip", "127.0.0.1", "--relay-ip", "127.0.0.1",
        "--min-port", str(relay), "--max-port", str(relay + 20),
        "--log-file", str(tmp_path / "turn.log"), "--pidfile", str(tmp_path / "turn.pid"),
        stdout=out,
    )  # fmt: skip
    conf = tmp_path / "turnserver.conf"
    conf.write_text(out.getvalue())
    process = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while True:  # coturn listens on TCP as well as UDP: ready once it accepts
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert process.poll() is None, (tmp_path / "turn.log").read_text()
                assert time.monotonic() < deadline, "coturn did not start"
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)


def test_coturn_relays_for_the_credentials_of_a_player_and_refuses_others(coturn, browser):
    page = browser.new_context().new_page()
    url = f"turn:127.0.0.1:{coturn}?transport=udp"

    def gathered(secret: str, now: float) -> list[str]:
        made = turn_credentials(secret=secret, match_id=7, user_id=42, now=now, ttl_seconds=600)
        return page.evaluate(GATHER, {"url": url, "username": made.username,
                                      "credential": made.credential})  # fmt: skip

    relayed = gathered(SECRET, time.time())
    assert relayed and all(" typ relay " in line and " 127.0.0.1 " in line for line in relayed)
    assert gathered("another-secret", time.time()) == []
    assert gathered(SECRET, time.time() - 601) == []  # expired a second ago
