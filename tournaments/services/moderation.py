"""Moderators' actions on tournaments: cancel one, remove a player (their points stay, struck
out: docs/rules.md "Arena tournaments", item 5), from a finished one too, whose places are then
written again. A ban strikes the player out of the tournaments not over by itself
(tournaments/hook_answers.py). Each checks the moderator
(moderation.services.may_moderate: active staff with the permission, under no sanction) and
writes one `ModerationEntry` in the same transaction."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from moderation.services import may_moderate
from realtime.errors import CommandError
from tournaments import live
from tournaments.locks import lock_tournament
from tournaments.models import (
    ModerationAction,
    ModerationEntry,
    Player,
    Status,
    Tournament,
)
from tournaments.selectors import FINISHED_LISTED_FOR
from tournaments.services.places import places_write

PERMISSION = "tournaments.moderate_tournament"
# How long after its end a tournament's places may still be written again by a removal: as
# long as the tournaments page lists it.
REPLACE_WINDOW = FINISHED_LISTED_FOR


def _checked(moderator, reason: str) -> str:
    if not may_moderate(moderator, PERMISSION):
        raise PermissionDenied(PERMISSION)
    reason = (reason or "").strip()
    if not reason:
        raise CommandError("bad_field", _("Give a reason."))
    return reason[:500]


def tournament_cancel(*, moderator, tournament_id: int, reason: str) -> Tournament:
    """Cancel a tournament that has not finished: no new pairings; matches being played end as
    they would (they no longer count). Locks the tournament."""
    reason = _checked(moderator, reason)
    with transaction.atomic():
        lock_tournament(tournament_id)
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise CommandError("tournament_over", _("This tournament is over."))
        tournament.status = Status.CANCELLED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        tournament.pairings.filter(scored_at__isnull=True).update(scored_at=timezone.now())
        Player.objects.filter(tournament=tournament).update(playing=None)
        ModerationEntry.objects.create(
            moderator=moderator, action=ModerationAction.CANCEL, tournament=tournament,
            reason=reason,
        )  # fmt: skip
        live.changed(tournament.pk)
        live.send_on_commit(tournament.pk, {"type": "tournament.status", "status": "cancelled"})
    return tournament


def tournament_player_remove(*, moderator, tournament_id: int, user_id: int, reason: str) -> Player:
    """Remove a player: never paired again, their points shown struck out, never ranked. In a
    tournament finished within REPLACE_WINDOW (a player banned after it, found cheating) the
    places are written again without them, so the podium and the profiles' history move up;
    an older one is refused (its places stand). Locks the tournament."""
    reason = _checked(moderator, reason)
    if user_id == moderator.pk:
        raise CommandError("own_case", _("You cannot moderate your own case."))
    with transaction.atomic():
        lock_tournament(tournament_id)
        finished_at = (
            Tournament.objects.filter(pk=tournament_id, status=Status.FINISHED)
            .values_list("finished_at", flat=True)
            .first()
        )
        if finished_at is not None and finished_at < timezone.now() - REPLACE_WINDOW:
            raise CommandError(
                "too_late",
                _("This tournament finished more than %(days)s days ago: its places stand.")
                % {"days": REPLACE_WINDOW.days},
            )
        player = (
            Player.objects.select_for_update()
            .filter(tournament_id=tournament_id, user_id=user_id)
            .first()
        )
        if player is None:
            raise CommandError("not_joined", _("This player is not in the tournament."))
        if player.removed:
            raise CommandError("removed", _("This player was removed already."))
        player.removed = True
        player.save(update_fields=["removed"])
        ModerationEntry.objects.create(
            moderator=moderator, action=ModerationAction.REMOVE, tournament_id=tournament_id,
            target_user_id=user_id, reason=reason,
        )  # fmt: skip
        if finished_at is not None:
            places_write(tournament_id)
        live.changed(tournament_id)
    return player
