"""A match's two chats: the players' and the spectators'. Rows are never edited.

Visibility (chat/selectors.py): players see the players' chat; spectators see both; the players
see the spectators' chat only once the match is over (no outside help during play).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MAX_CHAT_LENGTH = 140


class Room(models.TextChoices):
    PLAYERS = "players", _("players' chat")
    SPECTATORS = "spectators", _("spectators' chat")


class QuickPhrase(models.TextChoices):
    """The buttons' phrases, stored by key and shown in each reader's language."""

    GOOD_LUCK = "good_luck", _("Good luck!")
    GOOD_GAME = "good_game", _("Good game!")
    THANKS = "thanks", _("Thanks!")
    WELL_PLAYED = "well_played", _("Well played!")


class ChatMessage(models.Model):
    """One message: either plain text (up to 140 characters) or a quick phrase's key."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages"
    )
    room = models.CharField(_("chat"), max_length=16, choices=Room.choices)
    # varchar(140): PostgreSQL itself refuses a longer text.
    text = models.CharField(_("text"), max_length=MAX_CHAT_LENGTH, blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=16, choices=QuickPhrase.choices,
                              blank=True)  # fmt: skip
    created_at = models.DateTimeField(_("sent"), default=timezone.now)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["match", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(room__in=Room.values), name="chat_room_valid"),
            models.CheckConstraint(
                condition=Q(phrase__in=[*QuickPhrase.values, ""]), name="chat_phrase_valid"
            ),
            # Exactly one of the two: a text or a quick phrase.
            models.CheckConstraint(
                condition=(Q(text="") & ~Q(phrase="")) | (~Q(text="") & Q(phrase="")),
                name="chat_text_or_phrase",
            ),
        ]
        indexes = [
            models.Index(fields=["match", "id"], name="chat_match_order"),
            # The per-user rate limit counts a user's recent messages (chat/services.py).
            models.Index(fields=["user", "created_at"], name="chat_user_recent"),
        ]

    def __str__(self) -> str:
        return f"#{self.match_id} {self.user_id}: {self.text or self.phrase}"

    @property
    def shown_text(self) -> str:
        """The text, or the quick phrase in the active language."""
        return self.text or str(QuickPhrase(self.phrase).label)


class ChatMute(models.Model):
    """A player muted the opponent's chat for one match."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("muted opponent")
        verbose_name_plural = _("muted opponents")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="chat_mute_once_per_match"),
            models.CheckConstraint(condition=~Q(user=models.F("muted")), name="chat_mute_other"),
        ]

    def __str__(self) -> str:
        return f"#{self.match_id} {self.user_id} muted {self.muted_id}"
