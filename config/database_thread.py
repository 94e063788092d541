"""Database work of the sockets, off the event loop (games, chat and lobby consumers)."""

from __future__ import annotations

from channels.db import DatabaseSyncToAsync


def in_database_thread(function):
    """Run `function` in a worker thread with a fresh database connection from the pool.

    Not thread-sensitive: channels' default runs every socket's database work of a process on one
    shared thread, so a step waited behind all others (bench/live_load.py). Services lock the match
    row, so commands for one match stay serialised; stale connections are closed around each call
    (channels.db.DatabaseSyncToAsync).
    """
    return DatabaseSyncToAsync(function, thread_sensitive=False)
