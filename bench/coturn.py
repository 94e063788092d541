"""Debian's coturn on the loopback with the configuration `manage.py turnserver_conf` writes
(tests/integration/test_turn.py, bench/call_abuse.py): listening and relaying on 127.0.0.1, with
RELAY_PORTS relay ports of its own, and the site's CALL_TURN_SECRET (Django must be set up)."""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.core.management import call_command

from config.processes import free_port

RELAY_PORTS = 40  # more than a user's quota plus another user's call


def coturn_binary() -> str | None:
    binary = shutil.which("turnserver") or "/usr/bin/turnserver"
    return binary if os.path.exists(binary) else None


@contextmanager
def running_coturn(folder: Path, *arguments: str) -> Iterator[int]:
    """coturn started with `turnserver_conf`'s output for these extra arguments; yields its port
    once it accepts connections, and stops it afterwards."""
    binary = coturn_binary()
    if binary is None:
        raise FileNotFoundError("no coturn: apt-get install coturn")
    port, relay = free_port(), free_port()
    out = io.StringIO()
    call_command(
        "turnserver_conf", "--realm", "nardy.test", "--port", str(port),
        "--listening-ip", "127.0.0.1", "--relay-ip", "127.0.0.1",
        "--min-port", str(relay), "--max-port", str(relay + RELAY_PORTS - 1),
        "--log-file", str(folder / "turn.log"), "--pidfile", str(folder / "turn.pid"),
        *arguments, stdout=out,
    )  # fmt: skip
    conf = folder / "turnserver.conf"
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
                log = folder / "turn.log"
                assert process.poll() is None, log.read_text() if log.exists() else "coturn exited"
                assert time.monotonic() < deadline, "coturn did not start"
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)
