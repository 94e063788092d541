"""Each player's next server seed, drawn before they send a form (docs/rules.md, Platform rules).

A match's server seed must be fixed before the client seeds it is mixed with are known, or a
dishonest server could try seeds until the dice suit it. The second player of a challenge or a
rematch sends their seed after the commitment was published; this module gives the first player
the same order: the Play page (and a direct challenge's form) shows the SHA-256 of a server seed
drawn for that player's next match, before their browser's seed is sent. Creating a challenge,
a match against the computer or a pool wait takes that seed; the page then commits to a new one.

A player may have several pages open: a pool join names the commitment its page shows and takes
the seed only if it is still that one (`take_committed_seed`), so a tab whose commitment was used
by another is refused rather than given a seed it never showed. After each take, every lobby
socket of the player is sent the new commitment (docs/protocol.md `next_seed`).

The seed waits in Redis (never in a page, a socket message, a log line or the admin) for a day;
without one (expired, or Redis restarted) the match draws a fresh seed, as before.
"""

from __future__ import annotations

import logging
import re

import redis
from django.conf import settings
from django.db import transaction

from config.redis_client import sync_client as _client
from games.fairness import commitment, new_server_seed
from realtime.groups import notify_user

log = logging.getLogger(__name__)

WAIT_SECONDS = 24 * 3600
COMMITMENT_PATTERN = re.compile(r"[0-9a-f]{64}")


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
    _announce_after_commit(user_id)
    return seed.decode() if seed else new_server_seed()


def take_committed_seed(user_id: int, seed_hash: str) -> str | None:
    """The player's next server seed, taken, if its commitment is `seed_hash` (what the player's
    page showed when the form was sent); None, taking nothing, when it is not (another tab or form
    used it, it expired, Redis restarted) or Redis cannot be reached. Atomic: of two tabs sending
    the same commitment at once, one gets the seed."""
    key = _key(user_id)

    def take_if_committed(pipe: redis.client.Pipeline) -> bytes | None:
        seed = pipe.get(key)  # watched: a change before EXEC retries this function
        if seed is None or commitment(seed.decode()) != seed_hash:
            return None
        pipe.multi()
        pipe.delete(key)
        return seed

    try:
        seed = _client().transaction(take_if_committed, key, value_from_callable=True)
    except redis.RedisError:
        log.warning("the next server seed of user %s could not be taken", user_id, exc_info=True)
        return None
    if seed is None:
        return None
    _announce_after_commit(user_id)
    return seed.decode()


def _announce_after_commit(user_id: int) -> None:
    """Tell the player's open pages the commitment of their next seed once the use is saved."""
    transaction.on_commit(lambda: _announce(user_id))


def _announce(user_id: int) -> None:
    seed_hash = next_seed_commitment(user_id)
    if seed_hash is not None:
        notify_user(user_id, {"type": "next_seed", "server_seed_hash": seed_hash})
