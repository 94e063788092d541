"""Blocks between players, reports, moderators' sanctions and the append-only audit trail.
Every row is written by moderation/services.py; the admin only reads them and calls
those services.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MAX_REPORT_TEXT = 500
MAX_REASON_TEXT = 1000


class Block(models.Model):
    """`blocker` blocked `blocked`: no challenges, accepts or pairing between them, and neither
    sees the other's chat (moderation/selectors.py `blocked_between`)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]
        # The reverse lookup (who blocked me) for blocked_between and the chat filter.
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_reverse")]

    def __str__(self) -> str:
        return f"{self.blocker} ⊘ {self.blocked}"


class ReportReason(models.TextChoices):
    CHAT_ABUSE = "chat_abuse", _("abuse in chat")
    CHEATING = "cheating", _("cheating")
    STALLING = "stalling", _("stalling")
    OTHER = "other", _("other")


class ReportStatus(models.TextChoices):
    OPEN = "open", _("open")
    CLOSED = "closed", _("closed")


class Report(models.Model):
    """A player's report on another, with the match (and so its chat) attached when there is one."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_made",
        verbose_name=_("reporter"),
    )  # fmt: skip
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_received",
        verbose_name=_("reported player"),
    )  # fmt: skip
    match = models.ForeignKey(
        "games.Match", on_delete=models.PROTECT, null=True, blank=True, related_name="reports",
        verbose_name=_("match"),
    )  # fmt: skip
    reason = models.CharField(_("reason"), max_length=16, choices=ReportReason.choices)
    text = models.CharField(_("details"), max_length=MAX_REPORT_TEXT, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=ReportStatus.choices, default=ReportStatus.OPEN
    )
    created_at = models.DateTimeField(_("reported"), default=timezone.now)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name=_("closed by"),
    )  # fmt: skip
    resolution = models.CharField(_("resolution"), max_length=MAX_REASON_TEXT, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        constraints = [
            # One open report per reporter and target at a time.
            models.UniqueConstraint(
                fields=["reporter", "target"],
                condition=Q(status="open"),
                name="report_one_open_per_pair",
            ),  # fmt: skip
            models.CheckConstraint(condition=~Q(reporter=F("target")), name="report_not_self"),
            models.CheckConstraint(
                condition=Q(reason__in=ReportReason.values), name="report_reason_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=ReportStatus.values), name="report_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(status="open", closed_at__isnull=True)
                | Q(status="closed", closed_at__isnull=False),
                name="report_closed_has_time",
            ),
        ]
        indexes = [
            # The queue: open first, oldest first.
            models.Index(fields=["status", "created_at"], name="report_queue"),
            models.Index(fields=["reporter", "created_at"], name="report_reporter_recent"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reporter} → {self.target} ({self.get_reason_display()})"


class SanctionKind(models.TextChoices):
    WARNING = "warning", _("warning")
    CHAT_MUTE = "chat_mute", _("chat mute")
    BAN = "ban", _("ban")


class Sanction(models.Model):
    """A warning, a chat mute (with an end) or a ban (with an end, or permanent: no end)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sanctions",
        verbose_name=_("user"),
    )  # fmt: skip
    kind = models.CharField(_("kind"), max_length=16, choices=SanctionKind.choices)
    reason = models.CharField(_("reason"), max_length=MAX_REASON_TEXT)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("moderator"),
    )  # fmt: skip
    created_at = models.DateTimeField(_("given"), default=timezone.now)
    ends_at = models.DateTimeField(_("ends"), null=True, blank=True)
    lifted_at = models.DateTimeField(_("lifted"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name=_("lifted by"),
    )  # fmt: skip
    seen_at = models.DateTimeField(_("seen by the user"), null=True, blank=True)
    report = models.ForeignKey(
        Report, on_delete=models.PROTECT, null=True, blank=True, related_name="sanctions",
        verbose_name=_("report"),
    )  # fmt: skip

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=SanctionKind.values), name="sanction_kind_valid"
            ),
            # A chat mute always ends; a warning has no end; a ban may have one.
            models.CheckConstraint(
                condition=~Q(kind="chat_mute") | Q(ends_at__isnull=False),
                name="sanction_mute_has_end",
            ),
            models.CheckConstraint(
                condition=~Q(kind="warning") | Q(ends_at__isnull=True),
                name="sanction_warning_has_no_end",
            ),
            models.CheckConstraint(
                condition=Q(ends_at__isnull=True) | Q(ends_at__gt=F("created_at")),
                name="sanction_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(lifted_at__isnull=True) | Q(lifted_by__isnull=False),
                name="sanction_lifted_by_someone",
            ),
        ]
        indexes = [
            models.Index(
                fields=["user", "kind"],
                condition=Q(lifted_at__isnull=True),
                name="sanction_in_force",
            ),  # fmt: skip
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.user}"

    def in_force(self, now=None) -> bool:
        now = now or timezone.now()
        if self.lifted_at is not None or self.kind == SanctionKind.WARNING:
            return False
        return self.ends_at is None or self.ends_at > now


class AuditAction(models.TextChoices):
    WARN = "warn", _("warned")
    CHAT_MUTE = "chat_mute", _("muted chat")
    BAN = "ban", _("banned")
    LIFT = "lift", _("lifted a sanction")
    ANNUL = "annul", _("annulled a match")
    CLOSE_REPORT = "close_report", _("closed a report")


class AuditEntry(models.Model):
    """One moderator action. Append-only: a database trigger refuses UPDATE and DELETE
    (migration 0002), and the admin shows the rows read-only."""

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("moderator"),
    )  # fmt: skip
    action = models.CharField(_("action"), max_length=16, choices=AuditAction.choices)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name=_("target user"),
    )  # fmt: skip
    target_match = models.ForeignKey(
        "games.Match", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("target match"),
    )  # fmt: skip
    sanction = models.ForeignKey(
        Sanction, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("sanction"),
    )  # fmt: skip
    report = models.ForeignKey(
        Report, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("report"),
    )  # fmt: skip
    reason = models.CharField(_("reason"), max_length=MAX_REASON_TEXT)
    created_at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=AuditAction.values), name="audit_action_valid"
            ),
        ]
        # What the Moderators group may do (moderation/migrations: the group), each checked by
        # the admin action that calls the service.
        permissions = [
            ("warn_user", _("Can warn a user")),
            ("mute_user", _("Can mute a user's chat")),
            ("ban_user", _("Can ban a user")),
            ("lift_sanction", _("Can lift a ban or a mute early")),
            ("annul_match", _("Can annul a match")),
            ("close_report", _("Can close a report")),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator}: {self.get_action_display()}"
