"""Following and unfollowing (friends/models.py). Refusals are CommandErrors with a code
(docs/protocol.md has none of them: these are form posts) and one message each, and change
nothing.

Who may follow whom: a signed-up player (guests are throwaway accounts: they neither follow nor
are followed), not banned, not themselves, not a bot, not across a block either way
(moderation's blocks: a blocked player can't follow you, so they can't see your presence
either, friends/selectors.py), and at most FOLLOWS_PER_USER players, counted under the
follower's row lock so two tabs cannot both take the last place.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.locks import user_row_lock
from accounts.models import User
from friends.models import Follow
from moderation.eligibility import refuse_if_banned
from moderation.selectors import ban_in_force, blocked_between
from realtime.errors import CommandError


def _refuse_target(user: User, target: User) -> None:
    if target.pk == user.pk:
        raise CommandError("self", _("You cannot follow yourself."))
    if not target.is_active or target.is_guest or target.is_bot:
        raise CommandError("not_a_player", _("This player cannot be followed."))
    if ban_in_force(target.pk) is not None:
        raise CommandError("not_a_player", _("This player cannot be followed."))
    if blocked_between(user.pk, target.pk):
        raise CommandError("blocked", _("You cannot follow this player."))


def follow_add(*, user: User, target: User) -> Follow:
    """`user` follows `target`; following again returns the row there is. Locks the follower's
    user row (the count of their follows)."""
    if user.is_guest:
        raise CommandError("guest", _("Guests cannot follow players: sign up to follow friends."))
    refuse_if_banned(user)
    _refuse_target(user, target)
    with transaction.atomic():
        user_row_lock(user.pk)
        existing = Follow.objects.filter(follower=user, followed=target).first()
        if existing is not None:
            return existing
        if Follow.objects.filter(follower=user).count() >= settings.FOLLOWS_PER_USER:
            raise CommandError(
                "follow_limit",
                _("You follow %(limit)d players already, the most one may; unfollow someone "
                  "first.") % {"limit": settings.FOLLOWS_PER_USER},
            )  # fmt: skip
        return Follow.objects.create(follower=user, followed=target)


def follow_remove(*, user: User, target_id: int) -> bool:
    """`user` no longer follows `target_id`; True when they did."""
    deleted, _rows = Follow.objects.filter(follower=user, followed_id=target_id).delete()
    return deleted > 0
