"""Each player's next server seed, drawn before they send a form (provably fair dice, issue 19).

A match's server seed must be fixed before the client seeds it is mixed with are known, or a
dishonest server could try seeds until the dice suit it. The second player of a challenge or a
rematch sends their seed after the commitment was published; this module gives the first player
the same order: the Play page (and a direct challenge's form) shows the SHA-256 of a server seed
drawn for that player's next match, before their browser's seed is sent. Creating a challenge,
a match against the computer or a pool wait takes that seed; the page then commits to a new one.

The seed waits in Redis (never in a page, a socket message, a log line or the admin) for a day;
without one (expired, or Redis restarted) the match draws a fresh seed, as before.
"""

from __future__ import annotations

import logging

import redis
from django.conf import settings

from config.redis_client import sync_client as _client
from games.fairness import commitment, new_server_seed

log = logging.getLogger(__name__)

WAIT_SECONDS = 24 * 3600


def _key(user_id: int) -> str:
    return f"{settings.REDIS_PREFIX}:next-server-seed:{user_id}"


def next_seed_commitment(user_id: int) -> str | None:
    """The hash of the player's next server seed (drawn now when there is none); None when Redis
    cannot be reached (the page then shows no commitment, and the match draws its own seed)."""
    try:
        client = _client()
        client.set(_key(user_id), new_server_seed(), nx=True, ex=WAIT_SECONDS)
        seed = client.get(_key(user_id))
    except redis.RedisError:
        log.warning("the next server seed of user %s could not be read", user_id, exc_info=True)
        return None
    return commitment(seed.decode()) if seed else None


def take_next_seed(user_id: int) -> str:
    """The player's committed next server seed, taken (a second match cannot reuse it), or a fresh
    one when none is waiting."""
    try:
        seed = _client().getdel(_key(user_id))
    except redis.RedisError:
        log.warning("the next server seed of user %s could not be taken", user_id, exc_info=True)
        seed = None
    return seed.decode() if seed else new_server_seed()
