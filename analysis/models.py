"""A finished match's post-match analysis, stored once and reused (docs/features.md, "How play
works")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class MatchAnalysis(models.Model):
    """One row per analysed match. ``turns_done`` of ``turns_total`` is the live progress;
    ``result`` holds every turn and each seat's totals (analysis/engine.py; docs/protocol.md,
    "Post-match analysis and the match export")."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="analysis", primary_key=True
    )
    status = models.CharField(
        max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="analysis_requests",
    )  # fmt: skip
    requested_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    turns_done = models.PositiveIntegerField(default=0)
    turns_total = models.PositiveIntegerField(default=0)
    positions = models.PositiveIntegerField(default=0)
    cpu_seconds = models.FloatField(default=0.0)
    result = models.JSONField(default=dict, blank=True)
    # The cube decisions analysed (nardy/cube_analysis.py); 0 in a match without the cube.
    cube_decisions = models.PositiveIntegerField(default=0)
    # Each seat's performance rating, for the profile's average and trend (null: no decision).
    pr_creator = models.FloatField(null=True, blank=True)
    pr_opponent = models.FloatField(null=True, blank=True)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        constraints = [
            models.CheckConstraint(
                condition=Q(turns_done__lte=models.F("turns_total")), name="analysis_progress_valid"
            ),
        ]
        # The replay panel's place in the queue (analysis/selectors.py queue_position), polled
        # each second by every page waiting: it reads the queued rows only, never the history.
        indexes = [
            models.Index(
                fields=["requested_at", "match"],
                condition=Q(status=AnalysisStatus.QUEUED),
                name="analysis_queued_order",
            ),
        ]

    def __str__(self) -> str:
        return f"analysis of match #{self.match_id} ({self.status})"

    @property
    def percent(self) -> int:
        if self.status == AnalysisStatus.DONE:
            return 100
        if not self.turns_total:
            return 0
        return min(99, 100 * self.turns_done // self.turns_total)
