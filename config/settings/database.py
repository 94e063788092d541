"""PostgreSQL (the connection pool) and Redis: the channel layer, the cache and the sessions."""

from __future__ import annotations

import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .testing import per_test_worker

# --- PostgreSQL -------------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if not DATABASE_URL:
    raise ImproperlyConfigured(
        "DATABASE_URL is not set. Use `make run` / `make test` (they start an embedded "
        "PostgreSQL), or set DATABASE_URL=postgres://user:password@host:5432/dbname."
    )
_database = dj_database_url.parse(DATABASE_URL)
if _database["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("DATABASE_URL must point at PostgreSQL (postgres://...).")
# Under ASGI every sync_to_async call may land on another thread; psycopg's pool hands out
# ready connections instead of opening one per message. Pooling requires CONN_MAX_AGE = 0.
_database["CONN_MAX_AGE"] = 0
_database["OPTIONS"] = {
    # Parameters are bound on the server (Django's documented psycopg 3 option), so a statement
    # run five times on a connection is prepared there and planned once: the play commands'
    # PostgreSQL CPU went from 4.3 to 1.9 ms per command (`make bench-service`).
    "prepare_threshold": 5,
    "server_side_binding": True,
    "pool": {
        "min_size": int(os.environ.get("DATABASE_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DATABASE_POOL_MAX", "20")),
        "timeout": 10,
    },
}
_database["TEST"] = {"NAME": os.environ.get("DATABASE_TEST_NAME") or None}
DATABASES = {"default": _database}

# A PostgreSQL streaming replica for the read-only pages (config/db_router.py, docs/scaling.md
# "PostgreSQL"): none unless DATABASE_REPLICA_URL is set.
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
# Pages read the replica only while it is at most this far behind the primary; the probe of its
# lag is kept this long per process, so no page shows a state older than the sum (3 s).
REPLICA_MAX_LAG_SECONDS = float(os.environ.get("REPLICA_MAX_LAG_SECONDS", "2"))
REPLICA_PROBE_SECONDS = 1.0
# After a browser's write (a form, a follow, a sign-in), its pages read the primary this long.
REPLICA_AFTER_WRITE_SECONDS = int(os.environ.get("REPLICA_AFTER_WRITE_SECONDS", "10"))
if DATABASE_REPLICA_URL:
    _replica = dj_database_url.parse(DATABASE_REPLICA_URL)
    _replica["CONN_MAX_AGE"] = 0
    # Each connection the pool hands out is checked first (Django passes psycopg_pool's
    # check_connection): after the replica restarts, its pooled connections are dead, and each
    # one taken would fail a page over to the primary and stop replica reads until the next probe.
    _replica["CONN_HEALTH_CHECKS"] = True
    _replica["OPTIONS"] = {
        **_database["OPTIONS"],
        # A short wait: a page whose replica connection does not come reads the primary.
        "pool": {**_database["OPTIONS"]["pool"], "min_size": 1, "timeout": 2},
    }
    # A test run builds its database on the primary only; the replica streams it.
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES["replica"] = _replica
    DATABASE_ROUTERS = ["config.db_router.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# transactions belong to services (docs/architecture.md "How code is shaped here")
ATOMIC_REQUESTS = False

# --- Redis: channel layer, cache (sessions, allauth rate limits), Celery -------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if not REDIS_URL:
    raise ImproperlyConfigured(
        "REDIS_URL is not set. Use `make run` / `make test` (they start an embedded Redis), "
        "or set REDIS_URL=redis://host:6379/0 (or unix:///path/to/redis.sock?db=0)."
    )


# The Redis servers of the sockets' messages (docs/scaling.md "Redis"): the channel layer shards
# its groups over them (channels-redis' own sharding of `hosts`) and each match's pub/sub channel
# lives on the one its name hashes to (config/redis_client.py). Presence, socket limits, pools,
# the cache and the Celery broker stay on REDIS_URL. Space- or comma-separated; REDIS_URL alone
# when unset, which is every developer's `make run` and `make test`.
_channel_urls = os.environ.get("REDIS_CHANNEL_URLS", "").replace(",", " ").split()
REDIS_CHANNEL_URLS = _channel_urls or [REDIS_URL]

# A prefix keeps several sites (or a test run) apart on one Redis server.
REDIS_PREFIX = per_test_worker(os.environ.get("REDIS_PREFIX", "nardy"))

# Redis pub/sub: a group message is published once and each Daphne process that has a socket in
# the group gets it once and hands it to those sockets (the list-based core layer ran a Redis
# script per receiving socket, and two commands per message received: bench/live_load.py). Nothing
# is queued for a socket that is not connected; match sockets resynchronise by version
# (docs/protocol.md). Pub/sub channels ignore the Redis database number, hence the prefix.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": REDIS_CHANNEL_URLS, "prefix": f"{REDIS_PREFIX}:asgi:"},
    }
}

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"{REDIS_PREFIX}:cache",
        # One pool per process, not one per async context (config/redis_client.py).
        "OPTIONS": {"pool_class": "config.redis_client.SharedConnectionPool"},
    }
}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
