"""Starting and stopping the servers this project runs as child processes, written once for the
launcher (`make run`), the tests' fixtures and the benchmarks. Standard library only.

- `start(command)`: a child in a process group (a session) of its own, so a signal meant for us (a
  terminal's Ctrl-C) does not reach it, and `stop` can reach everything it forked (a Celery
  worker's pool children) through the group.
- `wait_until(condition)`: poll until a condition holds (a health URL answers, a worker answers a
  ping), failing at once, with the process's name, when a watched process exits meanwhile.
- `stop(processes)`: SIGTERM every group, wait up to a grace for all of them together, then SIGKILL
  whatever is left of each group (a group may outlive its leader). `kill(process)` is the SIGKILL
  alone, for the restart drills.
- `Stop` and `stop_on_signals()`: SIGINT and SIGTERM raise `Stop` in the main thread, so the code
  that started children unwinds through its `finally` and stops them; `ignore_signals()` while it
  does, so a second Ctrl-C cannot cut the clean-up short.
- `Children`: named children, each writing to a log file of its own (the benchmarks).
- `free_port()`: a TCP port on 127.0.0.1 that nothing listens on now.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import FrameType
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
# Our servers exit within a second or two of SIGTERM (Daphne closes its sockets, a Celery worker
# finishes its short tasks); past this something is stuck, and SIGKILL ends it.
STOP_GRACE_SECONDS = 15.0

Watched = subprocess.Popen[Any] | Mapping[str, subprocess.Popen[Any]] | None


class Stop(Exception):
    """Raised from the signal handler (`stop_on_signals`) to unwind into the clean-up code."""


class ProcessExited(RuntimeError):
    """A process that `wait_until` watched exited before the condition held."""


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise Stop(signal.Signals(signum).name)


def stop_on_signals() -> None:
    """SIGINT and SIGTERM raise `Stop` (in the main thread, where Python runs signal handlers)."""
    signal.signal(signal.SIGINT, _raise_stop)
    signal.signal(signal.SIGTERM, _raise_stop)


def ignore_signals() -> None:
    """SIGINT and SIGTERM do nothing: the clean-up that follows a `Stop` runs to its end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(
    command: list[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | str = ROOT,
    stdin: int | IO[Any] | None = None,
    stdout: int | IO[Any] | None = None,
    stderr: int | IO[Any] | None = None,
) -> subprocess.Popen[bytes]:
    """`command` as a child in a process group of its own (see the module's docstring)."""
    return subprocess.Popen(
        command,
        cwd=cwd,
        env=None if env is None else dict(env),
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
    )


def _watched(processes: Watched) -> dict[str, subprocess.Popen[Any]]:
    if processes is None:
        return {}
    if isinstance(processes, subprocess.Popen):
        return {"the process": processes}
    return dict(processes)


def wait_until(
    condition: Callable[[], object],
    *,
    timeout: float,
    what: str,
    processes: Watched = None,
    interval: float = 0.1,
) -> None:
    """Call `condition` every `interval` seconds until it returns something true.

    An exception from `condition` means "not yet" (a server not listening yet refuses the
    connection). Raises `ProcessExited` as soon as one of `processes` (a process, or processes by
    name) has exited, and `TimeoutError` after `timeout` seconds; both say `what` was awaited
    and the last answer or error, so a failed start explains itself.
    """
    watched = _watched(processes)
    deadline = time.monotonic() + timeout
    last: object = None
    while True:
        for name, process in watched.items():
            if process.poll() is not None:
                raise ProcessExited(f"{what}: {name} exited with {process.returncode}")
        try:
            answer = condition()
        except Exception as error:  # noqa: BLE001 - not up yet
            last = error
        else:
            if answer:
                return
            last = answer
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what} did not come up within {timeout:.0f} s (last: {last!r})")
        time.sleep(interval)


def http_ok(url: str, timeout: float = 5.0) -> bool:
    """Whether a GET of `url` answers 200 (a health probe; errors raise, meaning "not yet")."""
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return bool(answer.status == 200)


def _signal_group(process: subprocess.Popen[Any], signum: int) -> None:
    try:
        os.killpg(process.pid, signum)
    except ProcessLookupError:
        pass


def stop(
    processes: subprocess.Popen[Any] | Iterable[subprocess.Popen[Any]],
    grace: float = STOP_GRACE_SECONDS,
) -> None:
    """SIGTERM each process's group, wait for them all up to `grace` seconds together, then
    SIGKILL what is left of each group, and reap every process. Processes that already exited
    are fine (their groups may still hold children)."""
    chosen = [processes] if isinstance(processes, subprocess.Popen) else list(processes)
    for process in chosen:
        if process.poll() is None:
            _signal_group(process, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for process in chosen:
        try:
            process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        _signal_group(process, signal.SIGKILL)  # the group may outlive its leader
        process.wait()


def kill(process: subprocess.Popen[Any]) -> None:
    """SIGKILL the process's group now, with no chance to say goodbye (the restart drills)."""
    _signal_group(process, signal.SIGKILL)
    process.wait()


class Children:
    """Named child processes, each in its own group and writing to `<log_dir>/<name>.log`;
    stopped together (or some by name) with `stop`."""

    def __init__(self, log_dir: Path, grace: float = STOP_GRACE_SECONDS) -> None:
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.log_dir = log_dir
        self.grace = grace
        self._logs: list[IO[bytes]] = []
        self._started: set[str] = set()

    def start(
        self, name: str, command: list[str], environment: Mapping[str, str]
    ) -> subprocess.Popen[bytes]:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        # A process started again (a restart drill) appends to its earlier lines.
        mode = "ab" if name in self._started else "wb"
        self._started.add(name)
        log_file = open(self.log_dir / f"{name}.log", mode)  # noqa: SIM115 - closed in close_logs
        self._logs.append(log_file)
        process = start(
            command, env=environment, stdin=subprocess.DEVNULL, stdout=log_file,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.processes[name] = process
        return process

    def stop(self, names: Iterable[str] | None = None) -> None:
        wanted = None if names is None else set(names)
        chosen = [name for name in self.processes if wanted is None or name in wanted]
        stop([self.processes[name] for name in chosen], grace=self.grace)
        for name in chosen:
            del self.processes[name]

    def kill(self, name: str) -> None:
        """SIGKILL one child and its group (a Celery worker's pool children too)."""
        kill(self.processes.pop(name))

    def log_tail(self, name: str, lines: int = 40) -> str:
        """The last lines a child wrote: what a failure message needs when the child exited
        and its folder is removed at the end of the run."""
        try:
            text = (self.log_dir / f"{name}.log").read_text(errors="replace")
        except OSError as error:
            return f"(no log: {error})"
        return "\n".join(text.splitlines()[-lines:])

    def close_logs(self) -> None:
        for handle in self._logs:
            handle.close()
        self._logs.clear()
