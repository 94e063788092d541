"""The pairing's locks, and the one order they are taken in (pairing/services.py).

Order everywhere: (a joining player's own lock,) a pool's lock, then that pool's entry rows
(`select_for_update(of=("self",))`: the users joined in are read, not locked).

The player's lock is an advisory lock, not their user row: starting a match inserts rows that
reference both players' user rows, which takes PostgreSQL's key-share lock on them while the
pool's lock is held. A join that held its user row `FOR UPDATE` while it waited for a pool's lock
(to move out of that pool) closed a cycle with the pairing of that pool, and PostgreSQL broke it
after its deadlock_timeout by failing one of the two. Nothing else takes these advisory locks.
"""

from __future__ import annotations

from django.db import connection

from pairing.pools import Pool

# Advisory lock classes: the pools' (the second key is hashtext(pool key)) and the players' (the
# second key is the user id).
POOL_LOCK_CLASS = 15_001
PLAYER_LOCK_CLASS = 15_002


def lock_player(user_id: int) -> None:
    """One player's joins one at a time (two tabs make one entry); taken before any pool's lock.
    Held until the transaction ends."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [PLAYER_LOCK_CLASS, user_id])


def lock_pool(pool: Pool) -> None:
    """One pairing of `pool` at a time; held until the transaction ends."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [POOL_LOCK_CLASS, pool.key]
        )


def rolled_back(error: BaseException) -> bool:
    """PostgreSQL rolled the transaction back over a lock conflict (SQLSTATE class 40: a deadlock
    or a serialization failure): nothing of it was saved and trying again may work. The database
    is up, so this is never reported as an outage."""
    return str(getattr(error.__cause__, "sqlstate", None) or "").startswith("40")
