from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class BotLevel(models.TextChoices):
    """The engine's bot levels (nardy/bots.py LEVELS), in its order: games checks at import
    that the two agree (games/models/choices.py); stored values never change."""

    BEGINNER = "beginner", _("Beginner")
    CLUB = "club", _("Club player")
    MASTER = "master", _("Master")
    EXPERT = "expert", _("Expert")


BOT_LEVELS: tuple[str, ...] = tuple(BotLevel.values)


class ColourScheme(models.TextChoices):
    """Light or dark pages (static/css/dark.css); "system" follows the device's
    `prefers-color-scheme`. Stored values never change."""

    SYSTEM = "system", _("As the device")
    LIGHT = "light", _("Light")
    DARK = "dark", _("Dark")


class BoardTheme(models.TextChoices):
    """The board's look (static/css/board.css, `data-board-theme`); stored values never change."""

    WOOD = "wood", _("Classic wood")
    FELT = "felt", _("Green felt")
    CONTRAST = "contrast", _("High contrast")


class CheckerColours(models.TextChoices):
    """The two sides' checkers (static/css/board.css, `data-checkers`): the first stays the
    light side the pages call White, the second the dark one called Black. The high-contrast
    board keeps its own white and black. Stored values never change."""

    IVORY_EBONY = "ivory-ebony", _("Ivory and ebony")
    IVORY_CRIMSON = "ivory-crimson", _("Ivory and crimson")
    PEARL_NAVY = "pearl-navy", _("Pearl and navy")


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
    # An email when a correspondence turn waits and a day before its deadline (docs/rules.md,
    # Platform rules, Correspondence): on, each player may turn it off on the preferences page.
    correspondence_emails = models.BooleanField(
        _("email me about correspondence turns"),
        default=True,
        db_default=True,
        help_text=_("When it is my turn in a correspondence match, and a day before its deadline."),
    )
    # The match page's sounds, muted or not, remembered for the player on any device.
    sounds_muted = models.BooleanField(_("mute sounds"), default=False, db_default=False)
    # Bots play as real accounts; they never appear on the leaderboards (beating one ranks nothing).
    is_bot = models.BooleanField(_("bot"), default=False)
    # A bot's strength, one of the engine's levels (nardy/bots.py); empty for people.
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

    # How the pages and the board look (accounts/appearance.py), drawn by the server on the first
    # paint; a visitor's choice lives in a cookie instead.
    colour_scheme = models.CharField(
        _("light or dark"), max_length=8, choices=ColourScheme.choices,
        default=ColourScheme.SYSTEM, db_default=ColourScheme.SYSTEM,
    )  # fmt: skip
    board_theme = models.CharField(
        _("board"), max_length=12, choices=BoardTheme.choices,
        default=BoardTheme.WOOD, db_default=BoardTheme.WOOD,
    )  # fmt: skip
    checker_colours = models.CharField(
        _("checkers"), max_length=16, choices=CheckerColours.choices,
        default=CheckerColours.IVORY_EBONY, db_default=CheckerColours.IVORY_EBONY,
        help_text=_("The high-contrast board keeps its own white and black checkers."),
    )  # fmt: skip

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
            # The look is one of the offered ones (the pages draw it from these values).
            models.CheckConstraint(
                condition=Q(colour_scheme__in=ColourScheme.values), name="user_colour_scheme_known"
            ),
            models.CheckConstraint(
                condition=Q(board_theme__in=BoardTheme.values), name="user_board_theme_known"
            ),
            models.CheckConstraint(
                condition=Q(checker_colours__in=CheckerColours.values),
                name="user_checker_colours_known",
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
