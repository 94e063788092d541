from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class BotLevel(models.TextChoices):
    """The engine's bot levels (games/rules/bots.py LEVELS), in its order: games checks at import
    that the two agree (games/models/choices.py); stored values never change."""

    BEGINNER = "beginner", _("Beginner")
    CLUB = "club", _("Club player")
    MASTER = "master", _("Master")


BOT_LEVELS: tuple[str, ...] = tuple(BotLevel.values)


class User(AbstractUser):
    """The site's user, custom from the first migration so it can grow without pain."""

    email = models.EmailField(_("email address"), unique=True)
    auto_roll = models.BooleanField(
        _("roll automatically"),
        default=False,
        help_text=_("Roll the dice for me as soon as my turn starts."),
    )
    # The server plays a turn at once when the roll leaves exactly one legal turn.
    play_forced = models.BooleanField(
        _("play forced turns for me"),
        default=False,
        db_default=False,
        help_text=_("When the roll leaves exactly one legal turn, play it at once."),
    )
    # After the last step the turn waits for Confirm or Undo (docs/protocol.md, "confirm"). On for
    # players who join from now on; the players who were here keep the turn ending by itself.
    confirm_turn = models.BooleanField(
        _("confirm my turn"),
        default=True,
        db_default=True,
        help_text=_("After my last step, wait for Confirm (or Undo) before the turn passes."),
    )
    # The match page's sounds, muted or not, remembered for the player on any device.
    sounds_muted = models.BooleanField(_("mute sounds"), default=False, db_default=False)
    # Bots play as real accounts; they never appear on the leaderboards (beating one ranks nothing).
    is_bot = models.BooleanField(_("bot"), default=False)
    # A bot's strength, one of the engine's levels (games/rules/bots.py); empty for people.
    bot_level = models.CharField(
        _("bot level"), max_length=16, choices=BotLevel.choices, blank=True, default="",
        db_default="",
    )  # fmt: skip
    # A visitor who pressed "Play now" without an account: plays the computer and
    # casual games, never rated; cannot report or challenge directly. Signing up turns the same
    # row into a real account, so the match history stays (accounts/guests.py).
    is_guest = models.BooleanField(_("guest"), default=False, db_default=False)
    # Empty: follow the browser (cookie, then Accept-Language). Set by the language selector and on
    # the preferences page; used for the user's pages, sockets and emails (realtime/language.py).
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
        constraints = [
            # A bot has a level and a person has none; a bot is never a guest.
            models.CheckConstraint(
                condition=Q(is_bot=False, bot_level="") | Q(is_bot=True, bot_level__in=BOT_LEVELS),
                name="user_bot_has_level",
            ),
            models.CheckConstraint(
                condition=~Q(is_bot=True, is_guest=True), name="user_bot_is_not_guest"
            ),
            # One account per level.
            models.UniqueConstraint(
                fields=["bot_level"], condition=Q(is_bot=True), name="user_one_bot_per_level"
            ),
        ]

    def get_absolute_url(self) -> str:
        return reverse("profile", kwargs={"username": self.username})

    @property
    def may_play_rated(self) -> bool:
        """Guests play casual games only: a rating needs an account that stays."""
        return not self.is_guest

    @property
    def may_report_or_challenge(self) -> bool:
        """Reports and direct challenges need a real account, not a throwaway guest."""
        return not self.is_guest
