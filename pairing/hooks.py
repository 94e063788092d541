"""The one place where pairing asks about the world beyond pools.

`blocked_pair_predicate` is the hook for player blocking (issue 14, built at the same time as
this): until blocking exists it says no pair is blocked. Wire the real check HERE, and only here:
pairing/services.py passes its predicate to the pure pairing function (pairing/logic.py), whose
tests already cover blocked pairs with a fake predicate.

`is_guest` is the hook for guest accounts (issue 16): guests cannot send direct challenges.
"""

from __future__ import annotations

from collections.abc import Iterable

from pairing.logic import BlockedPair, never_blocked


def blocked_pair_predicate(user_ids: Iterable[int]) -> BlockedPair:
    """A predicate telling whether two of `user_ids` must never be paired (either blocked the
    other). Returns False for every pair until blocking exists (issue 14)."""
    return never_blocked


def is_guest(user) -> bool:
    """Whether the account is a guest's (issue 16): False until guest accounts exist."""
    return bool(getattr(user, "is_guest", False))
