from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """The site's user, custom from the first migration so it can grow without pain."""

    email = models.EmailField(_("email address"), unique=True)
    auto_roll = models.BooleanField(
        _("roll automatically"),
        default=False,
        help_text=_("Roll the dice for me as soon as my turn starts."),
    )
    # Bots play as real accounts (issue #16); they never appear on the leaderboards (issue #13).
    is_bot = models.BooleanField(_("bot"), default=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def get_absolute_url(self) -> str:
        return reverse("profile", kwargs={"username": self.username})
