"""How tournaments answer the hooks of the apps below it (games/hooks.py, moderation/hooks.py),
filled at start-up by `TournamentsConfig.ready()` (README, "Architecture")."""

from games import hooks as games_hooks
from moderation import hooks as moderation_hooks
from tournaments.models import Player, Status
from tournaments.services.pairing import tournament_match_score, tournament_pair


def score_when_a_match_ends(sender, *, match_id, **kwargs) -> None:  # noqa: ANN001
    """A tournament match ended (after its commit): count it, then pair its players again at
    once, with whoever else is free."""
    tournament_id = tournament_match_score(match_id=match_id)
    if tournament_id is not None:
        tournament_pair(tournament_id=tournament_id)


def withdraw_when_banned(sender, *, user, **kwargs) -> None:  # noqa: ANN001
    """A banned player leaves every tournament not over (inside the ban's transaction)."""
    Player.objects.filter(
        user=user, tournament__status__in=(Status.SCHEDULED, Status.RUNNING)
    ).update(withdrawn=True)


def connect() -> None:
    games_hooks.match_ended.connect(score_when_a_match_ends, dispatch_uid="tournaments.ended")
    moderation_hooks.user_banned.connect(withdraw_when_banned, dispatch_uid="tournaments.ban")
