"""How games answers the hooks of the apps below it (accounts/hooks.py, ratings/hooks.py,
moderation/hooks.py), filled at start-up by `GamesConfig.ready()` (docs/architecture.md,
"Architecture")."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Exists, OuterRef, Q
from django.utils import formats, timezone
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


def match_label_for(match: Match, viewer_id: int) -> str:
    """'#12 · 02.12.2026 · Traditional, 3 · you won 3:1': enough to tell a player's matches
    against one opponent apart (the report form's choice, moderation/hooks.py). The result is
    the viewer's when they played in it, else both players' names around the score."""
    when = formats.date_format(timezone.localtime(match.created_at), "SHORT_DATE_FORMAT")
    rules = f"{match.get_rule_set_name_display()}, {match.length}"
    seat = {match.creator_id: 0, match.opponent_id: 1}.get(viewer_id)
    scores = (match.score_creator, match.score_opponent)
    if seat is None:
        names = (match.creator.username, match.opponent.username if match.opponent else "—")
        result = f"{names[0]} {scores[0]}:{scores[1]} {names[1]}"
    else:
        score = f"{scores[seat]}:{scores[1 - seat]}"
        if match.status != MatchStatus.FINISHED:
            result = f"{match.get_status_display()} {score}"
        elif match.winner_id == viewer_id:
            result = _("you won %(score)s") % {"score": score}
        else:
            result = _("you lost %(score)s") % {"score": score}
    return f"#{match.pk} · {when} · {rules} · {result}"


def matches_together(user_id: int, other_id: int, limit: int) -> list[tuple[int, str]]:
    together = Match.objects.filter(
        Q(creator_id=user_id, opponent_id=other_id) | Q(creator_id=other_id, opponent_id=user_id)
    ).exclude(status__in=(MatchStatus.OPEN, MatchStatus.CANCELLED))  # never played: no chat either
    together = together.select_related("creator", "opponent").order_by("-created_at", "-pk")
    together = together[:limit]
    return [(match.pk, match_label_for(match, user_id)) for match in together]


def match_label(match_id: int, viewer_id: int) -> str | None:
    match = Match.objects.select_related("creator", "opponent").filter(pk=match_id).first()
    return None if match is None else match_label_for(match, viewer_id)


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
    moderation_hooks.matches_together.fill(matches_together)
    moderation_hooks.match_label.fill(match_label)
    moderation_hooks.match_annul.fill(match_annul)
    moderation_hooks.user_banned.connect(end_matches_of_banned, dispatch_uid="games.end_matches")
