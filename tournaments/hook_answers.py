"""How tournaments answer the hooks of the apps below it (games/hooks.py, moderation/hooks.py),
filled at start-up by `TournamentsConfig.ready()` (docs/architecture.md, "Architecture")."""

from games import hooks as games_hooks
from games.selectors import own_turns_played
from moderation import hooks as moderation_hooks
from tournaments import live
from tournaments.arena import left_unplayed
from tournaments.models import Pairing, Player, Status
from tournaments.selectors import client_seeds_drawn_by_server
from tournaments.services.pairing import tournament_match_score, tournament_pair


def score_when_a_match_ends(sender, *, match_id, **kwargs) -> None:  # noqa: ANN001
    """A tournament match ended (after its commit): count it, then pair its players again at
    once, with whoever else is free."""
    tournament_id = tournament_match_score(match_id=match_id)
    if tournament_id is not None:
        tournament_pair(tournament_id=tournament_id)


def unplayed_arena_match(match, loser_seat: int) -> bool:  # noqa: ANN001
    """A rated arena match its loser left without playing moves no rating (docs/rules.md "Arena
    tournaments", item 3): the same rule as its arena points (tournaments/arena.py)."""
    if not Pairing.objects.filter(match_id=match.pk).exists():
        return False
    return left_unplayed(own_turns_played(match.pk, match.player_id(loser_seat)))


def strike_out_when_banned(sender, *, user, **kwargs) -> None:  # noqa: ANN001
    """A banned player is struck out of every tournament not over, as a moderator's removal
    does (tournaments/services/moderation.py): never paired again, points shown struck out and
    never ranked, so no podium or place at the end (docs/rules.md "Arena tournaments", item 5).
    Inside the ban's transaction, whose audit row records it; a finished tournament's places
    are a moderator's to recompute (the removal in the admin). The standings' new version is
    written after commit (`live.changed_after_commit`): the ban holds the Player rows without
    the tournament's lock, and must not then wait for a tournament row a cancel holds while it
    waits for these rows. Nothing to do the second time (the ban's pass after its commit)."""
    struck = Player.objects.filter(
        user=user, removed=False, tournament__status__in=(Status.SCHEDULED, Status.RUNNING)
    )
    tournament_ids = list(struck.values_list("tournament_id", flat=True))
    if struck.update(withdrawn=True, removed=True):
        live.changed_after_commit(tournament_ids)


def connect() -> None:
    games_hooks.client_seeds_drawn_by_server.fill(client_seeds_drawn_by_server)
    games_hooks.match_ended.connect(score_when_a_match_ends, dispatch_uid="tournaments.ended")
    games_hooks.rating_withheld.add(unplayed_arena_match)
    moderation_hooks.user_banned.connect(strike_out_when_banned, dispatch_uid="tournaments.ban")
