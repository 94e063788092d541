"""Writing notifications and reading them for the bell (docs/features.md, "Friends and
notifications";
docs/protocol.md "The site socket").

`notify` is the one way in, for every kind: the lower apps announce what happened through their
own signals (games, analysis, moderation: notifications/hook_answers.py) and never import this
module. What a notification passes before it is kept:

- the recipient wants the kind (their preferences; DEFAULT_KINDS without a row);
- nobody notifies themselves, nor across a block either way;
- at most NOTIFICATIONS_PER_SENDER_PER_HOUR from one sender to one recipient in a clock hour,
  counted in Redis (one INCR per recipient, atomic across processes), so a flood of challenges
  or match starts from one player rings a bell that many times at most, whatever the rate;
- a `dedupe_key` already kept for the recipient is not written again.

Each user keeps their newest NOTIFICATIONS_KEPT; older ones are deleted as new ones come, so the
table and every read of it stay bounded per user. Kept rows reach the user's open pages after
commit (`notification`), and every page opened later reads them (`notifications`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from config.redis_client import sync_client
from moderation.selectors import block_related_ids
from notifications.models import DEFAULT_KINDS, Kind, Notification, NotificationSettings
from realtime.errors import CommandError
from realtime.groups import user_message
from realtime.publisher import publish_on_commit

# How many a page's bell shows (the notifications page shows all that are kept).
NOTIFICATIONS_SHOWN = 20
# The most ids one mark-read or clear names (docs/protocol.md): a page names what it shows.
MAX_IDS_PER_COMMAND = 50


def enabled_kinds(user_id: int) -> frozenset[str]:
    row = NotificationSettings.objects.filter(user_id=user_id).first()
    return DEFAULT_KINDS if row is None else frozenset(row.kinds)


def kinds_set(*, user_id: int, kinds: Iterable[str]) -> frozenset[str]:
    """Keep the kinds the user wants (unknown ones are a caller's mistake: ValueError)."""
    chosen = frozenset(kinds)
    if not chosen <= set(Kind.values):
        raise ValueError(f"unknown kinds {sorted(chosen - set(Kind.values))}")
    NotificationSettings.objects.update_or_create(
        user_id=user_id, defaults={"kinds": sorted(chosen)}
    )
    return chosen


def _wanting(recipient_ids: list[int], kind: str) -> list[int]:
    rows = dict(
        NotificationSettings.objects.filter(user_id__in=recipient_ids).values_list(
            "user_id", "kinds"
        )
    )
    return [
        user_id
        for user_id in recipient_ids
        if kind in (rows[user_id] if user_id in rows else DEFAULT_KINDS)
    ]


def _cap_key(sender_id: int, recipient_id: int, hour: int) -> str:
    return f"{settings.REDIS_PREFIX}:notify:{sender_id}:{recipient_id}:{hour}"


def _under_cap(sender_id: int, recipient_ids: list[int]) -> list[int]:
    """Count one more notification from `sender_id` to each recipient in this clock hour and
    keep the recipients still under the cap."""
    hour = int(time.time() // 3600)
    with sync_client().pipeline(transaction=False) as pipe:
        for recipient_id in recipient_ids:
            key = _cap_key(sender_id, recipient_id, hour)
            pipe.incr(key)
            pipe.expire(key, 3600)
        counts = pipe.execute()[0::2]
    cap = settings.NOTIFICATIONS_PER_SENDER_PER_HOUR
    return [
        recipient_id
        for recipient_id, count in zip(recipient_ids, counts, strict=True)
        if count <= cap
    ]


def notify(
    *, recipient_id: int, kind: str, payload: dict[str, Any] | None = None,
    sender_id: int | None = None, dedupe_key: str = "",
) -> Notification | None:  # fmt: skip
    """Tell one user (see the module's docstring); the kept row, or None when it was not kept."""
    kept = notify_many(
        recipient_ids=[recipient_id], kind=kind, payload=payload, sender_id=sender_id,
        dedupe_key=dedupe_key,
    )  # fmt: skip
    return kept[0] if kept else None


def notify_many(
    *, recipient_ids: Iterable[int], kind: str, payload: dict[str, Any] | None = None,
    sender_id: int | None = None, dedupe_key: str = "",
) -> list[Notification]:  # fmt: skip
    """Tell several users the same news in a few queries, whatever their number (an arena's
    players, a player's followers). Call it after the commit of what it tells."""
    if kind not in Kind.values:
        raise ValueError(f"unknown notification kind {kind!r}")
    recipients = sorted({int(user_id) for user_id in recipient_ids} - {sender_id})
    if sender_id is not None and recipients:
        hidden = block_related_ids(sender_id)
        recipients = [user_id for user_id in recipients if user_id not in hidden]
    recipients = _wanting(recipients, kind) if recipients else []
    if dedupe_key and recipients:
        told = set(
            Notification.objects.filter(
                recipient_id__in=recipients, dedupe_key=dedupe_key
            ).values_list("recipient_id", flat=True)
        )
        recipients = [user_id for user_id in recipients if user_id not in told]
    if sender_id is not None and recipients:
        recipients = _under_cap(sender_id, recipients)
    if not recipients:
        return []
    now = timezone.now()
    rows = [
        Notification(
            recipient_id=user_id,
            kind=kind,
            sender_id=sender_id,
            payload=payload or {},
            dedupe_key=dedupe_key,
            created_at=now,
        )  # fmt: skip
        for user_id in recipients
    ]
    with transaction.atomic():
        if dedupe_key:
            # A racing writer of the same news may have kept it a moment ago: one row all the same.
            Notification.objects.bulk_create(rows, ignore_conflicts=True)
            rows = list(
                Notification.objects.filter(recipient_id__in=recipients, dedupe_key=dedupe_key)
            )
        else:
            rows = Notification.objects.bulk_create(rows)
        _trim(recipients)
        unread = _unread_counts(recipients)
        sender_name = (
            User.objects.filter(pk=sender_id).values_list("username", flat=True).first()
            if sender_id is not None
            else None
        )
        publish_on_commit(
            [
                user_message(
                    row.recipient_id,
                    {
                        "type": "user.notify",
                        "payload": {
                            "type": "notification",
                            "notification": wire(row, sender_name),
                            "unread": unread.get(row.recipient_id, 0),
                        },
                    },
                )
                for row in rows
            ]
        )
    return rows


def _trim(recipient_ids: list[int]) -> None:
    """Delete each recipient's notifications beyond their newest NOTIFICATIONS_KEPT."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            DELETE FROM notifications_notification WHERE id IN (
                SELECT id FROM (
                    SELECT id, row_number() OVER (
                        PARTITION BY recipient_id ORDER BY id DESC
                    ) AS rank
                    FROM notifications_notification WHERE recipient_id = ANY(%s)
                ) AS ranked WHERE rank > %s
            )
            """,
            [recipient_ids, settings.NOTIFICATIONS_KEPT],
        )


def _unread_counts(user_ids: list[int]) -> dict[int, int]:
    rows = (
        Notification.objects.filter(recipient_id__in=user_ids, read_at__isnull=True)
        .values("recipient_id")
        .annotate(unread=Count("id"))
        .values_list("recipient_id", "unread")
    )
    return dict(rows)


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(recipient_id=user_id, read_at__isnull=True).count()


def wire(row: Notification, sender_name: str | None) -> dict[str, Any]:
    """A notification on the wire (docs/protocol.md "The site socket"): the page writes its
    text from `kind` and `data` in its own language."""
    return {
        "id": row.pk,
        "kind": row.kind,
        "from": sender_name,
        "at": row.created_at.isoformat(),
        "read": row.read_at is not None,
        "data": row.payload,
    }


def latest(user_id: int, limit: int = NOTIFICATIONS_SHOWN) -> list[Notification]:
    return list(
        Notification.objects.filter(recipient_id=user_id)
        .select_related("sender")
        .order_by("-id")[:limit]
    )


def notifications_snapshot(user_id: int) -> dict[str, Any]:
    """What a page's bell starts from (`notifications`): the unread count and the newest."""
    return {
        "type": "notifications",
        "unread": unread_count(user_id),
        "items": [
            wire(row, row.sender.username if row.sender else None) for row in latest(user_id)
        ],
    }


def _owned(user_id: int, ids: list[int] | None) -> Q:
    """The user's notifications that a command names: all of them (`ids` None), or exactly
    those ids, each of which must be theirs (otherwise nothing changes: `not_found`)."""
    mine = Q(recipient_id=user_id)
    if ids is None:
        return mine
    wanted = set(ids)
    found = set(Notification.objects.filter(mine, pk__in=wanted).values_list("pk", flat=True))
    if found != wanted:
        raise CommandError("not_found", _("There is no such notification."))
    return mine & Q(pk__in=wanted)


def _changed(user_id: int, **fields: Any) -> None:
    """Tell every page of the user what changed, so each bell shows the same."""
    payload = {"type": "notifications_changed", "unread": unread_count(user_id), **fields}
    publish_on_commit([user_message(user_id, {"type": "user.notify", "payload": payload})])


def notifications_mark_read(*, user_id: int, ids: list[int] | None = None) -> int:
    """Mark the user's notifications read (all, or these ids: see `_owned`); returns how many
    were unread."""
    with transaction.atomic():
        marked = (
            Notification.objects.filter(_owned(user_id, ids), read_at__isnull=True)
            .update(read_at=timezone.now())
        )  # fmt: skip
        _changed(user_id, read="all" if ids is None else sorted(set(ids)))
    return marked


def notifications_clear(*, user_id: int, ids: list[int] | None = None) -> int:
    """Delete the user's notifications (all, or these ids: see `_owned`); returns how many."""
    with transaction.atomic():
        cleared, _rows = Notification.objects.filter(_owned(user_id, ids)).delete()
        _changed(user_id, cleared="all" if ids is None else sorted(set(ids)))
    return cleared
