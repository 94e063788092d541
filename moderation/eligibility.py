"""Who may play, pair, chat or challenge: the one place that decides it, with one message per
refusal. The services of games (create, accept, rematch, direct challenges), chat and pairing call
these before they change anything; each refusal is a CommandError whose code docs/protocol.md
lists, so a refused command changes nothing.

What decides: a ban or a chat mute in force, blocks (either way), and the kind of account (guests
play casual games and neither report nor challenge; bots are played from their own form).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from moderation.models import Block
from moderation.selectors import ban_in_force, blocked_between, chat_mute_in_force
from realtime.errors import CommandError

# One message per refusal, whichever command met it.
MESSAGES = {
    "banned": gettext_lazy("Your account is banned."),
    "blocked": gettext_lazy("You cannot play this player."),
    "bot": gettext_lazy("The computer does not look for opponents."),
    "guest_not_rated": gettext_lazy("Guests play casual games; sign up to play rated."),
    "guest": gettext_lazy("Sign up to challenge a player."),
}


def refusal(code: str) -> CommandError:
    return CommandError(code, str(MESSAGES[code]))


def refuse_if_banned(user) -> None:
    """A banned player cannot play (create, accept, rematch), wait in a pool, challenge or chat."""
    if ban_in_force(user.pk) is not None:
        raise refusal("banned")


def refuse_if_blocked(a_id: int, b_id: int) -> None:
    """No challenge, accept, rematch or pairing between players when either blocks the other."""
    if blocked_between(a_id, b_id):
        raise refusal("blocked")


def refuse_chat(user) -> None:
    """A banned player, or one whose chat a moderator muted, does not chat."""
    refuse_if_banned(user)
    mute = chat_mute_in_force(user.pk)
    if mute is not None:
        raise CommandError(
            "muted",
            _("A moderator muted your chat until %(end)s.")
            % {"end": timezone.localtime(mute.ends_at).strftime("%Y-%m-%d %H:%M")},
        )


def refuse_pool(user, *, rated: bool) -> None:
    """A player who may not wait in a pool: a bot (the computer is played from its own form), a
    banned player, a guest in a rated pool (guests play casual games)."""
    if user.is_bot:
        raise refusal("bot")
    refuse_if_banned(user)
    if rated and not user.may_play_rated:
        raise refusal("guest_not_rated")


def blocked_pair_predicate(user_ids: Iterable[int]) -> Callable[[int, int], bool]:
    """A predicate telling whether two of `user_ids` must never be paired: either blocks the
    other. Each pair is asked at most once per call of the predicate's maker (pairing repeats
    rounds over the same players; pairing/logic.py takes it as its `BlockedPair`)."""
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


def blocked_pairs_among(user_ids: Iterable[int]) -> Callable[[int, int], bool]:
    """The same predicate as `blocked_pair_predicate` for many players at once: every block
    between two of `user_ids` read in one query (a tournament pairs up to a thousand players in
    one wave, docs/rules.md "Arena tournaments")."""
    ids = list(user_ids)
    pairs = {
        frozenset(pair)
        for pair in Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list(
            "blocker_id", "blocked_id"
        )
    }

    def blocked(first: int, second: int) -> bool:
        return frozenset((first, second)) in pairs

    return blocked


def refuse_direct_challenge(creator, invited) -> None:
    """Who may not challenge whom directly: guests (no real account), banned players, anyone a
    bot (the computer is played from its own form), a pair where either blocks the other."""
    if not creator.may_report_or_challenge:
        raise refusal("guest")
    if invited.pk == creator.pk:
        raise CommandError("not_a_player", _("You cannot challenge yourself."))
    if not invited.is_active:
        raise CommandError("not_a_player", _("This account is not active."))
    if invited.is_bot:
        raise CommandError("not_a_player", _("Play the computer from the Play page."))
    refuse_if_banned(creator)
    refuse_if_blocked(creator.pk, invited.pk)


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
