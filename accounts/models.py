from django.conf import settings
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
    # Issue 17: the server plays a turn at once when the roll leaves exactly one legal turn.
    play_forced = models.BooleanField(
        _("play forced turns for me"),
        default=False,
        db_default=False,
        help_text=_("When the roll leaves exactly one legal turn, play it at once."),
    )
    # Issue 17: the match page's sounds, muted or not, remembered for the player on any device.
    sounds_muted = models.BooleanField(_("mute sounds"), default=False, db_default=False)
    # Bots play as real accounts (issue #16); they never appear on the leaderboards (issue #13).
    is_bot = models.BooleanField(_("bot"), default=False)
    # Empty: follow the browser (cookie, then Accept-Language). Set by the language selector and on
    # the preferences page; used for the user's pages, sockets and emails (accounts/language.py).
    language = models.CharField(
        _("language"),
        max_length=16,
        choices=settings.LANGUAGES,
        blank=True,
        default="",
        help_text=_("The language of the site and of the emails we send you."),
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def get_absolute_url(self) -> str:
        return reverse("profile", kwargs={"username": self.username})
