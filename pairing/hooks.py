"""The one place where pairing asks about the world beyond pools: blocks and bans
(`moderation.selectors`) and the kinds of account (`User.is_guest` / `User.is_bot`).

`blocked_pair_predicate` is what pairing/services.py passes to the pure pairing function
(pairing/logic.py); `refuse_pool` and `refuse_direct_challenge` are the checks before a player
waits in a pool or sends a direct challenge (accepting one is `match_accept`, which already
refuses banned and blocked players).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from games.services.lifecycle import refuse_if_banned
from pairing.logic import BlockedPair
from realtime.errors import CommandError


def blocked_pair_predicate(user_ids: Iterable[int]) -> BlockedPair:
    """A predicate telling whether two of `user_ids` must never be paired: either blocks the
    other (`moderation.selectors.blocked_between`). Each pair is asked at most once per call of
    the predicate's maker (pairing repeats rounds over the same players)."""
    from moderation.selectors import blocked_between

    allowed = set(user_ids)
    answers: dict[frozenset[int], bool] = {}

    def blocked(first: int, second: int) -> bool:
        if first not in allowed or second not in allowed:
            raise ValueError("a pair outside the pool's players")
        key = frozenset((first, second))
        if key not in answers:
            answers[key] = blocked_between(first, second)
        return answers[key]

    return blocked


def refuse_pool(user, *, rated: bool) -> None:
    """A player who may not wait in a pool: a bot (the computer is played from its own form), a
    banned player, a guest in a rated pool (guests play casual games)."""
    if user.is_bot:
        raise CommandError("bot", _("The computer does not look for opponents."))
    refuse_if_banned(user)
    if rated and not user.may_play_rated:
        raise CommandError("guest_not_rated", _("Guests play casual games; sign up to play rated."))


def refuse_direct_challenge(creator, invited) -> None:
    """Who may not challenge whom directly: guests (no real account), banned players, anyone a
    bot (the computer is played from its own form), a pair where either blocks the other."""
    if not creator.may_report_or_challenge:
        raise CommandError("guest", _("Sign up to challenge a player."))
    if invited.pk == creator.pk:
        raise CommandError("not_a_player", _("You cannot challenge yourself."))
    if not invited.is_active:
        raise CommandError("not_a_player", _("This account is not active."))
    if invited.is_bot:
        raise CommandError("not_a_player", _("Play the computer from the Play page."))
    refuse_if_banned(creator)
    if blocked_pair_predicate([creator.pk, invited.pk])(creator.pk, invited.pk):
        raise CommandError("blocked", _("You cannot challenge this player."))


def may_challenge(viewer, player, *, blocked: bool) -> bool:
    """Whether a profile offers `viewer` a Challenge button for `player`: the checks of
    `refuse_direct_challenge` that need no query (`blocked`: the page's own block lookup). A ban
    is checked when the challenge is sent, like every refusal there."""
    return (
        viewer.is_authenticated
        and viewer.may_report_or_challenge
        and viewer.pk != player.pk
        and player.is_active
        and not player.is_bot
        and not blocked
    )
