"""Reads for moderation: blocks, sanctions in force, the report queue.

`blocked_between(a, b)` is the one question other parts ask (accepting a challenge, rematches,
pairing): is either player blocking the other?
"""

from __future__ import annotations

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone

from moderation import hooks
from moderation.models import Block, Report, ReportStatus, Sanction, SanctionKind


def blocked_between(a_id: int, b_id: int) -> bool:
    """True when either user blocks the other (blocks work both ways: no challenge, accept,
    pairing or chat between them)."""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


# How many of their latest matches together a reporter may choose from on a profile's report
# form: enough to reach last week's, few enough to read on a phone.
REPORT_MATCH_CHOICES = 10


def report_match_choices(*, reporter_id: int, target_id: int) -> list[tuple[int, str]]:
    """The matches a report from a profile may be about: the two players' latest together."""
    return hooks.matches_together(reporter_id, target_id, REPORT_MATCH_CHOICES)


def report_match_label(*, match_id: int, viewer_id: int) -> str | None:
    return hooks.match_label(match_id, viewer_id)


def block_related_ids(user_id: int) -> set[int]:
    """Everyone this user blocks or is blocked by: whose chat they do not see."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in rows for other in pair if other != user_id}


def blocks_of(user_id: int) -> QuerySet[Block]:
    """The user's block list, newest first (the settings page)."""
    return Block.objects.filter(blocker_id=user_id).select_related("blocked").order_by("-id")


def blockers_between(a_id: int, b_id: int) -> set[int]:
    """Which of the two users block the other (one query; empty: no block either way)."""
    return set(
        Block.objects.filter(
            Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
        ).values_list("blocker_id", flat=True)
    )


def _in_force(user_id: int, kind: str) -> QuerySet[Sanction]:
    now = timezone.now()
    return Sanction.objects.filter(
        Q(ends_at__isnull=True) | Q(ends_at__gt=now),
        user_id=user_id,
        kind=kind,
        lifted_at__isnull=True,
    )


def ban_in_force(user_id: int) -> Sanction | None:
    """The user's ban in force (the one ending last; a permanent one first), or None."""
    return _in_force(user_id, SanctionKind.BAN).order_by("-ends_at").first()


def chat_mute_in_force(user_id: int) -> Sanction | None:
    return _in_force(user_id, SanctionKind.CHAT_MUTE).order_by("-ends_at").first()


def restricted(user_id: int) -> bool:
    """A ban or a chat mute is in force on the user (a warning restricts nothing). A staff
    member so restricted runs no moderation action (moderation/services.py)."""
    now = timezone.now()
    return Sanction.objects.filter(
        Q(ends_at__isnull=True) | Q(ends_at__gt=now),
        user_id=user_id,
        kind__in=(SanctionKind.BAN, SanctionKind.CHAT_MUTE),
        lifted_at__isnull=True,
    ).exists()


def unseen_warnings(user_id: int) -> list[Sanction]:
    return list(
        Sanction.objects.filter(
            user_id=user_id, kind=SanctionKind.WARNING, seen_at__isnull=True,
            lifted_at__isnull=True,
        ).order_by("created_at")
    )  # fmt: skip


def report_queue() -> QuerySet[Report]:
    """Open reports first, oldest first; then the closed ones, newest first."""
    return (
        Report.objects.select_related("reporter", "target", "match")
        .annotate(
            open_first=Case(
                When(status=ReportStatus.OPEN, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            )
        )
        .order_by("open_first", "created_at")
    )
