"""The bell's notifications, kept in PostgreSQL so a player who was away sees them on their next
page (docs/features.md, "Friends and notifications"; docs/protocol.md "The site socket").

A row is one thing to tell one user: its `kind` (stored value: never renamed, tested), who caused
it (`sender`, for the per-sender cap), and the `payload` its text is made from on the page, in
the page's language (templates/notifications/_bell.html). `dedupe_key` makes a repeat of the
same news one row (an arena's start announced twice by two sweeps).
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    CHALLENGE = "challenge", _("A player challenges me")
    FRIEND_PLAYING = "friend_playing", _("A player I follow starts a match")
    ARENA_STARTING = "arena_starting", _("An arena I joined starts in a minute")
    CORRESPONDENCE_TURN = "correspondence_turn", _("It is my turn in a correspondence match")
    CORRESPONDENCE_DEADLINE = (
        "correspondence_deadline",
        _("A day is left for my turn in a correspondence match"),
    )
    ANALYSIS_READY = "analysis_ready", _("The analysis I asked for is ready")
    REPORT_DECIDED = "report_decided", _("A moderator decided on my report")


# Off until the player turns them on (a popular player's every match would ring many bells).
OPT_IN_KINDS = frozenset({Kind.FRIEND_PLAYING})
DEFAULT_KINDS = frozenset(Kind.values) - OPT_IN_KINDS


class Notification(models.Model):
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("recipient"),
    )  # fmt: skip
    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices)
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("sender"),
    )  # fmt: skip
    payload = models.JSONField(_("payload"), default=dict)
    dedupe_key = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=Kind.values), name="notification_kind"),
            models.UniqueConstraint(
                fields=["recipient", "dedupe_key"],
                condition=~Q(dedupe_key=""),
                name="notification_once",
            ),  # fmt: skip
        ]
        indexes = [
            models.Index(fields=["recipient", "-id"], name="notification_recipient"),
            models.Index(
                fields=["recipient"],
                condition=Q(read_at__isnull=True),
                name="notification_unread",
            ),  # fmt: skip
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.recipient_id}"


class NotificationSettings(models.Model):
    """Which kinds a user wants in their bell; without a row, DEFAULT_KINDS."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    kinds = ArrayField(models.CharField(max_length=32, choices=Kind.choices), default=list)

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return f"notification kinds of {self.user_id}"
