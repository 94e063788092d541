"""How games answers the hooks of the apps below it (accounts/hooks.py, ratings/hooks.py,
moderation/hooks.py), filled at start-up by `GamesConfig.ready()` (README, "Architecture")."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import hooks as accounts_hooks
from games.models import EndReason, GameResult, Match, MatchStatus
from games.services.endings import matches_end_for_ban
from moderation import hooks as moderation_hooks
from ratings import hooks as ratings_hooks
from ratings.counts import Outcome
from ratings.services import rating_revert_match
from realtime.errors import CommandError


def has_played() -> Exists:
    """A user row has played (or created) a match: a guest with matches keeps its row, since
    the opponents' history shows it (accounts.guests.guests_delete_unused)."""
    return Exists(Match.objects.filter(Q(creator=OuterRef("pk")) | Q(opponent=OuterRef("pk"))))


def match_outcome(match: Match) -> Outcome:
    """What a finished match adds to its players' records (ratings/counts.py)."""
    mars = match.games.filter(result=GameResult.MARS).values_list("white_seat", "winner_side")
    return Outcome(
        rule_set_name=match.rule_set_name,
        player_ids=(match.creator_id, match.opponent_id),
        winner_id=match.winner_id,
        abandoned=match.end_reason == EndReason.ABANDONED,
        timeouts=(match.timeouts(0), match.timeouts(1)),
        mars_won_by_seat=tuple(white if side == "w" else 1 - white for white, side in mars),
    )


def played_in(user_id: int, match_id: int) -> bool:
    return Match.objects.filter(
        Q(creator_id=user_id) | Q(opponent_id=user_id), pk=match_id
    ).exists()


def latest_match_together(user_id: int, other_id: int) -> int | None:
    together = Match.objects.filter(
        Q(creator_id=user_id, opponent_id=other_id) | Q(creator_id=other_id, opponent_id=user_id)
    ).order_by("-created_at")
    return together.values_list("pk", flat=True).first()


def end_matches_of_banned(sender, *, user, **kwargs) -> None:  # noqa: ANN001
    matches_end_for_ban(user_id=user.pk)


def match_annul(*, match_id: int, refuse_party: Callable[[int | None], None]) -> Match:
    """Annul a finished match (moderation.services.match_annul, inside its transaction): it stays
    in the history, marked annulled; its rating changes are reverted through ratings' service
    (which also takes it out of the wins boards). Locks the match row; annulling twice is
    refused."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise CommandError("not_found", _("There is no such match."))
    # Annulling reverts ratings: one's own lost match would come back as points.
    refuse_party(match.creator_id)
    refuse_party(match.opponent_id)
    if match.status != MatchStatus.FINISHED:
        raise CommandError("match_not_finished", _("Only a finished match can be annulled."))
    if match.annulled_at is not None:
        raise CommandError("already_annulled", _("This match is annulled already."))
    match.annulled_at = timezone.now()
    match.save(update_fields=["annulled_at"])
    rating_revert_match(match_id=match.pk)  # and out of both players' records
    return match


def connect() -> None:
    accounts_hooks.has_history.fill(has_played)
    ratings_hooks.match_outcome.fill(match_outcome)
    moderation_hooks.took_part_in_match.add(played_in)
    moderation_hooks.latest_match_together.fill(latest_match_together)
    moderation_hooks.match_annul.fill(match_annul)
    moderation_hooks.user_banned.connect(end_matches_of_banned, dispatch_uid="games.end_matches")
