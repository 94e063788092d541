"""config/processes.py on real child processes: a child and the grandchild it forks both stop,
a process that ignores SIGTERM is killed after the grace, a watched process that exits ends a
wait at once, and a health URL is waited for over real HTTP."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from config import processes

pytestmark = pytest.mark.integration

# A child that starts a grandchild in its own process group (as a Celery worker starts its pool),
# prints the grandchild's pid, and sleeps; with IGNORE_TERM both ignore SIGTERM.
PARENT = """
import os, signal, subprocess, sys, time
if os.environ.get("IGNORE_TERM"):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", sys.argv[1]])
print(child.pid, flush=True)
time.sleep(600)
"""
GRANDCHILD = """
import os, signal, time
if os.environ.get("IGNORE_TERM"):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not reaped by its parent yet) is as good as gone.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ", 1)[1][0] != "Z"


def start_family(**environment: str) -> tuple[subprocess.Popen[bytes], int]:
    parent = processes.start(
        [sys.executable, "-c", PARENT, GRANDCHILD],
        env={**os.environ, **environment},
        stdout=subprocess.PIPE,
    )
    assert parent.stdout is not None
    grandchild = int(parent.stdout.readline())
    return parent, grandchild


def test_a_child_runs_in_its_own_process_group():
    parent, grandchild = start_family()
    try:
        assert os.getpgid(parent.pid) == parent.pid != os.getpgid(0)
        assert os.getpgid(grandchild) == parent.pid
    finally:
        processes.stop(parent, grace=5)


def test_stop_ends_the_whole_group_with_sigterm():
    parent, grandchild = start_family()
    started = time.monotonic()
    processes.stop([parent], grace=10)
    assert time.monotonic() - started < 5  # SIGTERM was enough: no grace waited out
    assert parent.returncode == -signal.SIGTERM
    processes.wait_until(lambda: not alive(grandchild), timeout=5, what="the grandchild's end")


def test_stop_kills_what_ignores_sigterm_after_the_grace():
    parent, grandchild = start_family(IGNORE_TERM="1")
    started = time.monotonic()
    processes.stop(parent, grace=1)
    assert 1 <= time.monotonic() - started < 5
    assert parent.returncode == -signal.SIGKILL
    processes.wait_until(lambda: not alive(grandchild), timeout=5, what="the grandchild's end")


def test_kill_ends_the_group_at_once():
    parent, grandchild = start_family(IGNORE_TERM="1")
    processes.kill(parent)
    assert parent.returncode == -signal.SIGKILL
    processes.wait_until(lambda: not alive(grandchild), timeout=5, what="the grandchild's end")


def test_stop_accepts_processes_that_already_exited():
    done = processes.start([sys.executable, "-c", "pass"])
    done.wait()
    processes.stop([done], grace=1)
    assert done.returncode == 0


def test_a_watched_process_that_exits_ends_the_wait_at_once():
    failing = processes.start([sys.executable, "-c", "raise SystemExit(3)"])
    started = time.monotonic()
    with pytest.raises(processes.ProcessExited, match="daphne-0 exited with 3"):
        processes.wait_until(
            lambda: False, timeout=30, what="the site", processes={"daphne-0": failing}
        )
    assert time.monotonic() - started < 10


def test_a_wait_that_times_out_says_what_it_waited_for_and_the_last_error():
    def refuse() -> bool:
        raise ConnectionRefusedError("not yet")

    with pytest.raises(TimeoutError, match=r"the site did not come up within 0 s .*not yet"):
        processes.wait_until(refuse, timeout=0.3, what="the site")


def test_free_port_is_free_and_a_health_url_is_awaited():
    port = processes.free_port()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # nothing listens there

    class Health(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            self.send_response(200 if self.path == "/healthz" else 404)
            self.end_headers()

        def log_message(self, *arguments: object) -> None:
            pass

    def serve_later(server_box: list[ThreadingHTTPServer]) -> None:
        time.sleep(0.5)  # the wait starts before the server listens
        server_box.append(ThreadingHTTPServer(("127.0.0.1", port), Health))
        server_box[0].serve_forever()

    box: list[ThreadingHTTPServer] = []
    thread = threading.Thread(target=serve_later, args=(box,), daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{port}"
        processes.wait_until(lambda: processes.http_ok(f"{url}/healthz"), timeout=10, what="health")
        with pytest.raises(urllib.error.HTTPError):
            processes.http_ok(f"{url}/missing")
    finally:
        processes.wait_until(lambda: box, timeout=5, what="the server")
        box[0].shutdown()
        box[0].server_close()


def test_children_log_to_their_own_files_and_stop_by_name(tmp_path):
    children = processes.Children(tmp_path, grace=5)
    children.start("speaker", [sys.executable, "-c", "print('hello', flush=True)"], os.environ)
    sleeper = children.start(
        "sleeper", [sys.executable, "-c", "import time; time.sleep(600)"], os.environ
    )
    try:
        processes.wait_until(
            lambda: (tmp_path / "speaker.log").read_text() == "hello\n", timeout=10, what="a line"
        )
        children.stop(["speaker"])
        assert set(children.processes) == {"sleeper"}
        assert sleeper.poll() is None
    finally:
        children.stop()
        children.close_logs()
    assert children.processes == {} and sleeper.returncode == -signal.SIGTERM
