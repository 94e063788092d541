"""Exercises from analysed matches, their attempts and ratings, and a player's statistics
(docs/features.md, "Exercises" and "A player's statistics").

An exercise is stored once, when its match's analysis is stored, with the analysis' values and
its candidates' (learning/positions.py): no attempt recomputes anything. The statistics rows are
counters kept when a match ends or is analysed, so the profile reads a few rows however many
matches the player has (bench/profiles.py).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from learning import glicko2
from learning.positions import BEARING_OFF, MIDDLE, OPENING


class Phase(models.TextChoices):
    OPENING = OPENING, _("opening")
    MIDDLE = MIDDLE, _("middle game")
    BEARING_OFF = BEARING_OFF, _("bearing off")


class Rated(models.Model):
    """A Glicko-2 rating's three values (learning/glicko2.py)."""

    rating = models.FloatField(default=glicko2.INITIAL_RATING)
    deviation = models.FloatField(default=glicko2.INITIAL_DEVIATION)
    volatility = models.FloatField(default=glicko2.INITIAL_VOLATILITY)

    class Meta:
        abstract = True

    @property
    def glicko(self) -> glicko2.Glicko:
        return glicko2.Glicko(self.rating, self.deviation, self.volatility)


class Exercise(Rated):
    """One turn of an analysed match that its player got wrong (a mistake or a blunder): the
    position before it, the dice, and what the analysis and its candidates say. ``public``: a
    blunder with one clear answer in a match that was not a private invite, offered to everyone
    (with its own Glicko-2 rating); the others are only their player's."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    game_number = models.PositiveSmallIntegerField()
    turn_number = models.PositiveIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    rule_set_name = models.CharField(max_length=16)
    phase = models.CharField(max_length=12, choices=Phase.choices)
    board = ArrayField(models.SmallIntegerField(), size=24)
    side = models.CharField(max_length=1)
    dice = ArrayField(models.PositiveSmallIntegerField(), size=2)
    first_turn = models.BooleanField()
    # The analysis' values of the turn as played (its row of MatchAnalysis.result).
    played_board = ArrayField(models.SmallIntegerField(), size=24)
    played_equity = models.FloatField()
    loss = models.FloatField()
    mark = models.CharField(max_length=8)
    # [[board, 2-ply equity], ...] best first; {board key: 1-ply equity} for the other ends.
    candidates = models.JSONField()
    estimates = models.JSONField()
    best_steps = models.JSONField()
    public = models.BooleanField(default=False)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("exercise")
        verbose_name_plural = _("exercises")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "game_number", "turn_number"], name="exercise_once_per_turn"
            ),
            models.CheckConstraint(condition=Q(side__in=["w", "b"]), name="exercise_side_valid"),
            models.CheckConstraint(
                condition=Q(solved__lte=models.F("attempts")), name="exercise_solved_le_attempts"
            ),
        ]
        indexes = [
            # The player's own exercises of a match, in the order played.
            models.Index(
                fields=["player", "match", "game_number", "turn_number"], name="exercise_own_order"
            ),  # fmt: skip
            # The stream: public exercises near a rating, per phase and rule set.
            models.Index(
                fields=["phase", "rule_set_name", "rating"],
                condition=Q(public=True),
                name="exercise_stream",
            ),  # fmt: skip
        ]

    def __str__(self) -> str:
        return f"exercise {self.pk}: match {self.match_id}, {self.game_number}.{self.turn_number}"


class ExerciseRating(Rated):
    """A player's exercise rating (Glicko-2), their streak of public exercises solved in a row
    and the longest one."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    streak = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("exercise rating")
        verbose_name_plural = _("exercise ratings")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating:.0f}"


class Attempt(models.Model):
    """A person's first answer to an exercise: only the first counts (rated when the exercise is
    public), so an answer replayed or sent twice changes nothing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    exercise = models.ForeignKey(Exercise, on_delete=models.CASCADE, related_name="+")
    correct = models.BooleanField()
    answer_board = ArrayField(models.SmallIntegerField(), size=24)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("exercise attempt")
        verbose_name_plural = _("exercise attempts")
        constraints = [
            models.UniqueConstraint(fields=["user", "exercise"], name="attempt_once_per_exercise")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on exercise {self.exercise_id}: {self.correct}"


class StatKind(models.TextChoices):
    """What a statistics line counts by. The values are stored: never change them."""

    LENGTH = "length", _("match length")
    LEVEL = "level", _("computer level")
    PHASE = "phase", _("phase")


class StatLine(models.Model):
    """A player's counters for one match length, one computer level or one phase: finished
    matches played and won, mars given and taken (docs/glossary.md), and for a phase the analysed
    decisions and the equity lost in them (its performance rating)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=StatKind.choices)
    key = models.CharField(max_length=16)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    mars_given = models.PositiveIntegerField(default=0)
    mars_taken = models.PositiveIntegerField(default=0)
    decisions = models.PositiveIntegerField(default=0)
    equity_lost = models.FloatField(default=0.0)

    class Meta:
        verbose_name = _("statistics line")
        verbose_name_plural = _("statistics lines")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "key"], name="stat_line_once"),
            models.CheckConstraint(
                condition=Q(won__lte=models.F("played")), name="stat_won_le_played"
            ),
            models.CheckConstraint(condition=Q(kind__in=StatKind.values), name="stat_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.key}: {self.won}/{self.played}"


class CountedResult(models.Model):
    """A finished match counted in its players' statistics lines: counted once."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"match {self.match_id} counted"


class MatchPerformance(models.Model):
    """A player's performance rating in one analysed match, for the profile's chart: the chart
    reads the player's latest rows through the index, however many there are."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()
    pr = models.FloatField()

    class Meta:
        verbose_name = _("match performance")
        verbose_name_plural = _("match performances")
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="performance_once_per_match")
        ]
        indexes = [
            models.Index(fields=["user", "-finished_at", "-match"], name="performance_latest")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in match {self.match_id}: {self.pr}"
