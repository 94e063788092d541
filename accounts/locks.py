"""The lock a write takes on its own user's row, to count one tab after another.

FOR NO KEY UPDATE: it excludes this lock's other takers (two tabs of one player blocking,
reporting, chatting, making invite links or tournaments at once are counted one after the other;
two moderators' sanctions of one user are written one after the other),
but not the key-share lock PostgreSQL takes on a user row at commit to check a foreign key naming
it. FOR UPDATE excluded that too: two players naming each other at once (challenging or blocking
each other) each held their own row and waited at commit to key-share the other's, a deadlock;
and a match starting for the player meanwhile waited for it at its commit
(games/services/starts.py, the lock order).
"""

from __future__ import annotations

from accounts.models import User


def user_row_lock(user_id: int, *, active: bool = False) -> User | None:
    """Lock the user's row until the transaction ends and return it; None when there is no such
    user (with `active`: or the account is deactivated)."""
    users = User.objects.select_for_update(no_key=True).filter(pk=user_id)
    if active:
        users = users.filter(is_active=True)
    return users.first()
