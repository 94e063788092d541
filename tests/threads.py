"""Database work in several threads at once, for race tests (each thread closes its connection)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def run_together(*functions: Callable[[], None], timeout: float = 30) -> None:
    def run(function: Callable[[], None]) -> None:
        try:
            function()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(function,)) for function in functions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
