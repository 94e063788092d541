"""How pairing answers the hooks of the apps below it (moderation/hooks.py), filled at start-up
by `PairingConfig.ready()` (README, "Architecture")."""

from moderation import hooks as moderation_hooks
from pairing.services import pool_leave


def leave_pools_when_banned(sender, *, user, **kwargs) -> None:  # noqa: ANN001
    pool_leave(user=user, reason="banned")


def connect() -> None:
    moderation_hooks.user_banned.connect(leave_pools_when_banned, dispatch_uid="pairing.leave")
