"""Arena tournaments in PostgreSQL (docs/rules.md "Arena tournaments").

- `Series`: a staff definition in the admin that makes a tournament every hour, day or week.
- `Tournament`: one arena: its rules, clock, start and end, limits, status.
- `Player`: one joined player: their running score (kept with each scored match, so the
  standings are one indexed read), streak, performance sum, and whether they are free.
- `Pairing`: each tournament match, keyed by the match: scored exactly once (`scored_at`).
- `ArenaPair`: two players' meetings in one arena, which the pairing wave reads (how often, when
  last) and moderators see once flagged (docs/rules.md "Arena tournaments", item 2).
- `ChatLine`: the tournament's own chat.
- `ModerationEntry`: an append-only row per moderator action on a tournament.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.showable_text import validate_showable
from games.models import LIVE_TIME_CONTROL_CHOICES, TURN_SECONDS_CHOICES, RuleSetName

MATCH_LENGTHS = (1, 3)
PLAYER_DURATIONS = (30, 60, 90)  # minutes, for tournaments players create
MAX_NAME = 60
MAX_CHAT = 140  # as the match chat (chat/models.py)


def new_token() -> str:
    return secrets.token_urlsafe(12)


class Every(models.TextChoices):
    HOUR = "hour", _("every hour")
    DAY = "day", _("every day")
    WEEK = "week", _("every week")


EVERY_STEP = {Every.HOUR: timedelta(hours=1), Every.DAY: timedelta(days=1),
              Every.WEEK: timedelta(weeks=1)}  # fmt: skip


class Status(models.TextChoices):
    SCHEDULED = "scheduled", _("starts soon")
    RUNNING = "running", _("in progress")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


class ArenaSettings(models.Model):
    """What a series and a tournament share: the matches' rules and who may join."""

    # Shown on the lists, the page and profiles: the rule of text others read (the admin's
    # forms run it; the services check it too, config/showable_text.py).
    name = models.CharField(_("name"), max_length=MAX_NAME, validators=[validate_showable])
    rule_set_name = models.CharField(
        _("rule set"), max_length=16, choices=RuleSetName.choices, default="traditional"
    )
    length = models.PositiveSmallIntegerField(
        _("match length"), choices=[(n, str(n)) for n in MATCH_LENGTHS], default=1
    )
    time_control = models.CharField(
        _("clock"), max_length=16, choices=LIVE_TIME_CONTROL_CHOICES, default="turn"
    )
    turn_seconds = models.PositiveSmallIntegerField(
        _("seconds per turn"), choices=[(n, str(n)) for n in TURN_SECONDS_CHOICES], default=60,
        help_text=_("only for the per-turn clock"),
    )  # fmt: skip
    rated = models.BooleanField(_("rated"), default=True)
    minutes = models.PositiveSmallIntegerField(_("duration (minutes)"), default=60)
    min_rating = models.PositiveSmallIntegerField(_("lowest rating"), null=True, blank=True)
    max_rating = models.PositiveSmallIntegerField(_("highest rating"), null=True, blank=True)
    min_rated_matches = models.PositiveSmallIntegerField(
        _("rated matches played at least"), default=0
    )
    max_players = models.PositiveIntegerField(_("at most this many players"), default=1000)

    class Meta:
        abstract = True


class Series(ArenaSettings):
    every = models.CharField(_("repeats"), max_length=8, choices=Every.choices)
    first_start = models.DateTimeField(_("first start"))
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("tournament series")
        verbose_name_plural = _("tournament series")
        constraints = [
            models.CheckConstraint(condition=Q(length__in=MATCH_LENGTHS), name="series_length"),
            models.CheckConstraint(condition=Q(minutes__gte=3), name="series_minutes"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_every_display()})"


class Tournament(ArenaSettings):
    series = models.ForeignKey(
        Series, on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="tournaments_created", verbose_name=_("created by"),
    )  # fmt: skip
    private = models.BooleanField(_("private (with a link)"), default=False)
    token = models.CharField(max_length=32, default=new_token, editable=False)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.SCHEDULED
    )
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"))
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # Bumped with every change of the standings; the socket publishes at most once a second
    # when it moved (tournaments/live.py).
    version = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(length__in=MATCH_LENGTHS), name="tournament_length"),
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="tournament_ends"),
            models.CheckConstraint(
                condition=Q(status__in=Status.values), name="tournament_status_valid"
            ),
            # A series makes one tournament per start, whoever runs the scheduling twice.
            models.UniqueConstraint(
                fields=["series", "starts_at"], name="tournament_one_per_series_start"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "starts_at"], name="tournament_status_start"),
            models.Index(fields=["created_by", "created_at"], name="tournament_creator_day"),
        ]

    def __str__(self) -> str:
        return f"{self.name} #{self.pk}"


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_players"
    )
    joined_at = models.DateTimeField(default=timezone.now)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    paused = models.BooleanField(_("paused"), default=False)
    # Paused by the arena, not by themselves: they lost a match by abandonment or by the clock
    # without a turn of their own (docs/rules.md "Arena tournaments", item 5); the page tells
    # them why until they resume.
    paused_as_absent = models.BooleanField(_("paused as absent"), default=False)
    removed = models.BooleanField(_("removed by a moderator"), default=False)
    points = models.PositiveIntegerField(_("points"), default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    # Performance (docs/rules.md): the sum of (opponent rating ±400) over `counted` results.
    performance_total = models.FloatField(default=0.0)
    counted = models.PositiveIntegerField(default=0)
    last_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    playing = models.ForeignKey(
        "games.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    final_place = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("tournament player")
        verbose_name_plural = _("tournament players")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_player_once"),
        ]
        indexes = [
            models.Index(
                fields=["tournament", "removed", "-points", "joined_at"],
                name="tournament_standings",
            ),
            models.Index(fields=["user", "tournament"], name="tournament_player_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"

    @property
    def performance(self) -> float | None:
        return self.performance_total / self.counted if self.counted else None


class Pairing(models.Model):
    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="tournament_pairing"
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # The ratings the players had when paired: the performance uses these, so a recomputation
    # gives the same standings whatever ratings did since.
    first_rating = models.FloatField()
    second_rating = models.FloatField()
    created_at = models.DateTimeField(default=timezone.now)
    scored_at = models.DateTimeField(null=True, blank=True)
    first_points = models.PositiveSmallIntegerField(null=True, blank=True)
    second_points = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("tournament match")
        verbose_name_plural = _("tournament matches")
        indexes = [
            models.Index(fields=["tournament", "scored_at"], name="tournament_pairing_open"),
        ]

    def __str__(self) -> str:
        return f"match #{self.match_id} in {self.tournament_id}"


class ArenaPair(models.Model):
    """Two players' matches with each other in one arena (docs/rules.md "Arena tournaments",
    item 2): written by the pairing wave with each match it begins, under the tournament's lock
    (tournaments/services/pairing.py), and counted unplayed by the scoring. `first_player` has
    the lower user id, so a pair has one row whoever sat first."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("tournament")
    )
    first_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("player"),
    )  # fmt: skip
    second_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("opponent"),
    )  # fmt: skip
    matches = models.PositiveIntegerField(_("matches together"), default=0)
    unplayed = models.PositiveIntegerField(_("left unplayed"), default=0)
    last_started_at = models.DateTimeField(_("last began"))
    # When the pair first met the moderators' mark (tournaments/arena.py `flagged`).
    flagged_at = models.DateTimeField(_("flagged"), null=True, blank=True)

    class Meta:
        verbose_name = _("arena pair")
        verbose_name_plural = _("arena pairs")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "first_player", "second_player"], name="arena_pair_once"
            ),
            models.CheckConstraint(
                condition=Q(first_player__lt=F("second_player")), name="arena_pair_ordered"
            ),
        ]
        indexes = [models.Index(fields=["-flagged_at"], name="arena_pair_flagged")]

    def __str__(self) -> str:
        return f"{self.first_player_id} and {self.second_player_id} in {self.tournament_id}"


class ChatLine(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.CharField(_("text"), max_length=MAX_CHAT)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("tournament chat message")
        verbose_name_plural = _("tournament chat messages")
        indexes = [
            models.Index(fields=["tournament", "id"], name="tournament_chat_order"),
            models.Index(fields=["user", "created_at"], name="tournament_chat_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.user_id}: {self.text}"


class ModerationAction(models.TextChoices):
    CANCEL = "cancel", _("cancelled the tournament")
    REMOVE = "remove", _("removed a player")


class ModerationEntry(models.Model):
    """One moderator action on a tournament; rows are only ever added (the admin shows them
    read-only; tournaments/services/moderation.py writes them in the action's transaction)."""

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("moderator"),
    )  # fmt: skip
    action = models.CharField(_("action"), max_length=16, choices=ModerationAction.choices)
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.PROTECT,
        related_name="moderation",
        verbose_name=_("tournament"),
    )
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name=_("target user"),
    )  # fmt: skip
    reason = models.CharField(_("reason"), max_length=500)
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("tournament moderation entry")
        verbose_name_plural = _("tournament moderation")
        ordering = ["-created_at", "-id"]
        permissions = [("moderate_tournament", _("Can cancel tournaments and remove players"))]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator}: {self.get_action_display()}"
