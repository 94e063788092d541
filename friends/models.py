"""Following: one player follows another (docs/features.md, "Friends and notifications").

One-way: the followed player sees how many follow them, never who. A row per pair; nobody
follows themselves (a check constraint) and nobody follows more than FOLLOWS_PER_USER players
(friends/services.py, counted under the follower's row lock).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Follow(models.Model):
    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("follower"),
    )  # fmt: skip
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("followed player"),
    )  # fmt: skip
    created_at = models.DateTimeField(_("since"), default=timezone.now)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]
        # Who follows a player (the count on a profile, the "started playing" notifications).
        indexes = [models.Index(fields=["followed", "follower"], name="follow_by_followed")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"
