"""How pairing answers the hooks of the apps below it (games/hooks.py, moderation/hooks.py),
filled at start-up by `PairingConfig.ready()` (docs/architecture.md, "Architecture")."""

from accounts.models import User
from games import hooks as games_hooks
from moderation import hooks as moderation_hooks
from pairing.selectors import match_pool_key, play_page_pairing
from pairing.services import pool_leave


def leave_pools_when_banned(sender, *, user, **kwargs) -> None:  # noqa: ANN001
    pool_leave(user=user, reason="banned")


def leave_pools_when_a_match_starts(sender, *, player_ids, **kwargs) -> None:  # noqa: ANN001
    """A match started another way (an accept, a rematch, the computer; games/services/starts.py,
    after its commit): its players who still wait leave, so a wait never seats someone twice; a
    pending offer counts as declined. Their pages are told `pool_left`, `in_a_match`."""
    for user in User.objects.filter(pk__in=player_ids, pool_entry__isnull=False):
        pool_leave(user=user, reason="in_a_match")


def connect() -> None:
    games_hooks.play_page_pairing.fill(play_page_pairing)
    games_hooks.match_pool_key.fill(match_pool_key)
    moderation_hooks.user_banned.connect(leave_pools_when_banned, dispatch_uid="pairing.leave")
    games_hooks.match_started.connect(
        leave_pools_when_a_match_starts, dispatch_uid="pairing.match_started"
    )
