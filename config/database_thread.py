"""Database work of the sockets, off the event loop (games, chat, lobby, tournament sockets).

Every call runs in a thread of the event loop's default executor through asgiref's
`SyncToAsync`, which carries the caller's context (the active language among it: asgiref's
locals follow only its own hops, not `asyncio.to_thread`'s); Daphne sizes that executor with
`ASGI_THREADS` (its documented setting; Python's default is cores + 4).

Not thread-sensitive: channels' default runs every socket's database work of a process on one
shared thread, so a step waited behind all others (bench/live_load.py). Services lock the match
row, so commands for one match stay serialised.

Each of those threads keeps its database connection from one call to the next instead of
handing it back to the pool and taking it again around every call, as channels'
`DatabaseSyncToAsync` does with `CONN_MAX_AGE = 0`: that round trip through the pool was 3.3 %
of a Daphne process under bench/live_load.py. So a process holds at most one connection per
executor thread on top of what its pages borrow (docs/operations.md "Production":
`DATABASE_POOL_MAX` must
leave room for them). A call that ends in a database error gives its connection back (closing
it returns it to the pool, which drops a broken one), so the next call starts on a sound one;
services' transactions are `atomic` blocks, which never outlive the call.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from django.db import DatabaseError, connection

P = ParamSpec("P")
T = TypeVar("T")


def in_database_thread(function: Callable[P, T]) -> Callable[P, Awaitable[T]]:
    """`function` as a coroutine function that runs it in a database thread."""

    @functools.wraps(function)
    def keeping_connection(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return function(*args, **kwargs)
        except DatabaseError:
            with contextlib.suppress(DatabaseError):  # a broken connection may fail to close
                connection.close()
            raise

    return SyncToAsync(keeping_connection, thread_sensitive=False)
