"""Let a Daphne process publish several channel-layer messages at once.

channels_redis' pub/sub layer sends every PUBLISH of a process under one `asyncio.Lock` (the lock
that also guards its subscriptions), so each publish waited for the Redis reply of the one before
it, and under load a busy event loop is slow to read those replies: every command's events queued
behind every other command's. The publish itself needs no lock (redis-py's client takes a pooled
connection per command), so here it runs without it.

With 500 auto-rolling matches (bench/live_load.py): p50 296 -> 100 ms, 205 -> 224 steps/s.

Two events of one match are never published at the same moment in practice (commands on a match
are a player's steps, seconds apart, and one command's events go in one message), and if two were
to overtake each other a socket sees the gap in versions and sends a fresh snapshot
(games/consumers.py). Imported by config/asgi.py, i.e. only inside Daphne.
"""

from channels_redis.pubsub import RedisSingleShardConnection


async def _publish(self: RedisSingleShardConnection, channel: str, message: bytes) -> None:
    self._ensure_redis()
    await self._redis.publish(channel, message)


RedisSingleShardConnection.publish = _publish
