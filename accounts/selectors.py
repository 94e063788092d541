"""Reads about players as a whole: how many are online."""

from __future__ import annotations

import time

from django.core.cache import cache

from config.redis_client import sync_client
from realtime.socket_limits import online_key

# The figure moves by a player or two a second on a busy site; nobody reads it to the second.
PLAYERS_ONLINE_CACHE_SECONDS = 5
PLAYERS_ONLINE_CACHE_KEY = "players-online"


def _count_online() -> int:
    # The sorted set scores each signed-in user with an open socket by when that lapses
    # (realtime/socket_limits.py): those still to lapse are online. A count, no clean-up: the
    # sockets' own code trims the set.
    return sync_client().zcount(online_key(), f"({time.time()}", "+inf")


def players_online() -> int:
    """Signed-in players (guests too) with any socket open, as counted at most
    PLAYERS_ONLINE_CACHE_SECONDS ago: the home page and its live boards (games/live_boards.py)."""
    return cache.get_or_set(PLAYERS_ONLINE_CACHE_KEY, _count_online, PLAYERS_ONLINE_CACHE_SECONDS)
