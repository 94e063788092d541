"""A match's games with their live state, and the append-only move log (games/models)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models.choices import (
    SIDES,
    GameResult,
    Phase,
)
from games.models.match import Match
from games.rules.cube import MAX_CUBE_VALUE


class Game(models.Model):
    """One game of a match, with its live state while it is played."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    white_seat = models.PositiveSmallIntegerField(
        help_text=_("seat (0 creator, 1 opponent) playing White")
    )
    # The one-die opening roll of game 1 (docs/rules.md, Who starts, colours, games and matches);
    # later games are started by the
    # previous winner without one, so these stay empty there.
    opening_white = models.PositiveSmallIntegerField(null=True, blank=True)
    opening_black = models.PositiveSmallIntegerField(null=True, blank=True)
    opening_ties = models.JSONField(default=list, blank=True)

    start_board = ArrayField(models.SmallIntegerField(), size=24)
    board = ArrayField(models.SmallIntegerField(), size=24, help_text=_("the board now"))
    turn_board = ArrayField(
        models.SmallIntegerField(), size=24, help_text=_("the board when this turn started")
    )
    turn = models.CharField(max_length=1, choices=[("w", _("White")), ("b", _("Black"))])
    phase = models.CharField(max_length=8, choices=Phase.choices, default=Phase.ROLL)
    dice = ArrayField(models.PositiveSmallIntegerField(), size=2, null=True, blank=True)
    roll = models.PositiveSmallIntegerField(null=True, blank=True)  # the roll number of `dice`
    rolls = models.PositiveSmallIntegerField(default=0, db_default=0)  # drawn in the game so far
    steps = models.JSONField(default=list, blank=True, help_text=_("steps played this turn"))
    turn_number = models.PositiveIntegerField(default=1)
    white_has_moved = models.BooleanField(default=False)
    black_has_moved = models.BooleanField(default=False)
    turn_started_at = models.DateTimeField()
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the running timer started (the turn's start, or an Omerta step that restarted it) and
    # how many steps into the turn that step was (games/rules/clock.py).
    clock_started_at = models.DateTimeField(null=True, blank=True)
    steps_timed = models.PositiveSmallIntegerField(default=0, db_default=0)

    result = models.CharField(max_length=4, choices=GameResult.choices, blank=True)
    winner_side = models.CharField(max_length=1, blank=True)
    points = models.PositiveSmallIntegerField(default=0)
    # The doubling cube (games/rules/cube.py): the stake, the seat that may raise it next (null:
    # either), the seat whose offer awaits an answer (and whether the auto-move of a timed-out
    # mover made it), and what a double taken this turn raised it to (0: none).
    cube_value = models.PositiveSmallIntegerField(default=1, db_default=1)
    cube_owner = models.PositiveSmallIntegerField(null=True, blank=True)
    cube_offer = models.PositiveSmallIntegerField(null=True, blank=True)
    cube_offer_by_server = models.BooleanField(default=False, db_default=False)
    turn_doubled_to = models.PositiveSmallIntegerField(default=0, db_default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
            models.CheckConstraint(condition=Q(turn__in=SIDES), name="game_turn_valid"),
            models.CheckConstraint(condition=Q(phase__in=Phase.values), name="game_phase_valid"),
            models.CheckConstraint(
                condition=Q(white_seat__in=(0, 1)), name="game_white_seat_valid"
            ),
            models.CheckConstraint(
                condition=Q(result__in=[*GameResult.values, ""]), name="game_result_valid"
            ),
            models.CheckConstraint(
                condition=Q(points__gte=0, points__lte=MAX_CUBE_VALUE), name="game_points_valid"
            ),
            models.CheckConstraint(
                condition=Q(cube_value__gte=1, cube_value__lte=MAX_CUBE_VALUE),
                name="game_cube_value_valid",
            ),
            models.CheckConstraint(
                condition=Q(cube_owner__isnull=True) | Q(cube_owner__in=(0, 1)),
                name="game_cube_owner_valid",
            ),
            models.CheckConstraint(
                condition=Q(cube_offer__isnull=True) | Q(cube_offer__in=(0, 1)),
                name="game_cube_offer_valid",
            ),
            models.CheckConstraint(
                condition=Q(opening_white__isnull=True) | ~Q(opening_white=F("opening_black")),
                name="game_opening_not_tied",
            ),
        ]

    def __str__(self) -> str:
        return f"match #{self.match_id} game {self.number}"

    def seat_of_side(self, side: str) -> int:
        return self.white_seat if side == "w" else 1 - self.white_seat


class Turn(models.Model):
    """The append-only move log: one row per completed turn (a pass has no steps)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    side = models.CharField(max_length=1)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="turns"
    )
    dice = ArrayField(models.PositiveSmallIntegerField(), size=2)
    roll = models.PositiveSmallIntegerField(null=True, blank=True)  # null before fair dice
    steps = models.JSONField(default=list, blank=True)
    board_after = ArrayField(models.SmallIntegerField(), size=24)
    by_server = models.BooleanField(default=False)
    # A double offered before this turn's roll and taken raised the cube to this (0: none).
    doubled_to = models.PositiveSmallIntegerField(default=0, db_default=0)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField()

    class Meta:
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="turn_number_unique"),
            models.CheckConstraint(condition=Q(side__in=SIDES), name="turn_side_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.game} turn {self.number} ({self.side})"
