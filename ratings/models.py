from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

INITIAL_RATING = 1500  # every player starts at 1500 (RULES.md "Platform rules")


class Rating(models.Model):
    """A player's current Elo rating (one row per player, created on first need)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    value = models.IntegerField(_("rating"), default=INITIAL_RATING)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [models.Index(fields=["-value"], name="rating_value_desc")]
        constraints = [
            models.CheckConstraint(
                condition=Q(wins__lte=models.F("matches")), name="rating_wins_le_matches"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.value}"


class RatingChange(models.Model):
    """The history of rating changes: one row per player per rated match."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="rating_changes"
    )
    before = models.IntegerField()
    after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="rating_change_once_per_match")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.before} → {self.after} (match #{self.match_id})"
