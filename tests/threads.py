"""Database work in several threads at once, for race tests (each thread closes its connection).

The functions start together (each thread waits until all are running, so none is done before
the last has started) and an exception any of them lets out fails the test: left in its thread
it would only be a pytest warning, and a race test whose thread died of a deadlock, or of any
error, would pass. A function that expects a refusal catches exactly that refusal itself."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def run_together(*functions: Callable[[], None], timeout: float = 30) -> None:
    """Run the functions at once, each in its own thread, and wait for them all; then raise the
    first exception one of them raised (the others' are noted on it), or `TimeoutError` when
    one is still running after `timeout` seconds."""
    start = threading.Barrier(len(functions))
    errors: list[BaseException] = []

    def run(function: Callable[[], None]) -> None:
        try:
            start.wait(timeout)
            function()
        except BaseException as error:  # handed to the test's thread below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(function,)) for function in functions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    if errors:
        first = errors[0]
        for other in errors[1:]:
            first.add_note(f"another thread raised too: {other!r}")
        raise first
    running = sum(thread.is_alive() for thread in threads)
    if running:
        raise TimeoutError(f"{running} of {len(threads)} threads still running after {timeout} s")
