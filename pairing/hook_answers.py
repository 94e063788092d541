"""How pairing answers the hooks of the apps below it (games/hooks.py, moderation/hooks.py),
filled at start-up by `PairingConfig.ready()` (README, "Architecture")."""

from games import hooks as games_hooks
from moderation import hooks as moderation_hooks
from pairing.selectors import play_page_pairing
from pairing.services import pool_leave


def leave_pools_when_banned(sender, *, user, **kwargs) -> None:  # noqa: ANN001
    pool_leave(user=user, reason="banned")


def connect() -> None:
    games_hooks.play_page_pairing.fill(play_page_pairing)
    moderation_hooks.user_banned.connect(leave_pools_when_banned, dispatch_uid="pairing.leave")
