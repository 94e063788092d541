"""Who is still on the Play page: a Redis sorted set of waiting players' ids, scored by when a
socket of theirs last said so. The lobby socket of a waiting player refreshes it every
REFRESH_SECONDS; once nobody has for POOL_GONE_SECONDS (the page closed, the network gone, the
Daphne process restarting longer than that), the sweep takes the player out of the pool.

The pool itself is in PostgreSQL (pairing/models.py): a Daphne restart loses nothing, and the
page's socket, reconnecting to any process, keeps the wait alive.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.conf import settings

from config.redis_client import client
from config.redis_client import sync_client as _sync_client

REFRESH_SECONDS = 2.0
FORGET_SECONDS = 3600  # members older than this are trimmed by the sweep


def alive_key() -> str:
    return f"{settings.REDIS_PREFIX}:pairing:alive"


def counts_key() -> str:
    return f"{settings.REDIS_PREFIX}:pairing:counts"


async def mark_alive(user_ids: Iterable[int]) -> None:
    members = {str(user_id): time.time() for user_id in user_ids}
    if members:
        await client().zadd(alive_key(), members)


def mark_alive_now(user_id: int) -> None:
    """From a service thread (joining the pool): alive from the first instant."""
    _sync_client().zadd(alive_key(), {str(user_id): time.time()})


def alive_among(user_ids: list[int], *, within: float) -> set[int]:
    """Those of `user_ids` whose page said it was open within the last `within` seconds."""
    if not user_ids:
        return set()
    scores = _sync_client().zmscore(alive_key(), [str(user_id) for user_id in user_ids])
    now = time.time()
    return {
        user_id
        for user_id, score in zip(user_ids, scores, strict=True)
        if score is not None and now - score <= within
    }


def forget_stale() -> None:
    _sync_client().zremrangebyscore(alive_key(), "-inf", time.time() - FORGET_SECONDS)


def write_counts(counts: dict[str, int]) -> dict[str, int]:
    """Store the pools' sizes for the sockets; returns what was stored before."""
    pipe = _sync_client().pipeline(transaction=True)
    pipe.hgetall(counts_key())
    pipe.delete(counts_key())
    if counts:
        pipe.hset(counts_key(), mapping=counts)
    before = pipe.execute()[0]
    return {key.decode(): int(value) for key, value in before.items()}


async def read_counts() -> dict[str, int]:
    stored = await client().hgetall(counts_key())
    return {key.decode(): int(value) for key, value in stored.items()}
