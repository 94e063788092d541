"""A match's games with their live state, and the append-only move log (games/models)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models.choices import (
    GameResult,
    Phase,
)
from games.models.domains import TypedCharField, TypedIntegerField, TypedSmallIntegerField
from games.models.match import Match


class Game(models.Model):
    """One game of a match, with its live state while it is played."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = TypedSmallIntegerField(domain="nonneg_smallint")
    white_seat = TypedSmallIntegerField(
        help_text=_("seat (0 creator, 1 opponent) playing White"), domain="games_seat"
    )
    # The one-die opening roll of game 1 (docs/rules.md, Who starts, colours, games and matches);
    # later games are started by the
    # previous winner without one, so these stay empty there.
    opening_white = TypedSmallIntegerField(domain="nonneg_smallint", null=True, blank=True)
    opening_black = TypedSmallIntegerField(domain="nonneg_smallint", null=True, blank=True)
    opening_ties = models.JSONField(default=list, blank=True)

    start_board = ArrayField(models.SmallIntegerField(), size=24)
    board = ArrayField(models.SmallIntegerField(), size=24, help_text=_("the board now"))
    turn_board = ArrayField(
        models.SmallIntegerField(), size=24, help_text=_("the board when this turn started")
    )
    turn = TypedCharField(
        max_length=1, choices=[("w", _("White")), ("b", _("Black"))], domain="games_side"
    )
    phase = TypedCharField(
        max_length=8, choices=Phase.choices, default=Phase.ROLL, domain="games_phase"
    )
    dice = ArrayField(models.PositiveSmallIntegerField(), size=2, null=True, blank=True)
    # The roll number of `dice`, and how many were drawn in the game so far.
    roll = TypedSmallIntegerField(domain="nonneg_smallint", null=True, blank=True)
    rolls = TypedSmallIntegerField(domain="nonneg_smallint", default=0, db_default=0)
    steps = models.JSONField(default=list, blank=True, help_text=_("steps played this turn"))
    turn_number = TypedIntegerField(domain="nonneg_integer", default=1)
    white_has_moved = models.BooleanField(default=False)
    black_has_moved = models.BooleanField(default=False)
    turn_started_at = models.DateTimeField()
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the running timer started (the turn's start, or an Omerta step that restarted it) and
    # how many steps into the turn that step was (nardy/clock.py).
    clock_started_at = models.DateTimeField(null=True, blank=True)
    steps_timed = TypedSmallIntegerField(domain="nonneg_smallint", default=0, db_default=0)

    result = TypedCharField(
        max_length=4, choices=GameResult.choices, blank=True, domain="games_game_result"
    )
    winner_side = models.CharField(max_length=1, blank=True)
    points = TypedSmallIntegerField(domain="games_points", default=0)
    # The doubling cube (nardy/cube.py): the stake, the seat that may raise it next (null:
    # either), the seat whose offer awaits an answer (and whether the auto-move of a timed-out
    # mover made it), and what a double taken this turn raised it to (0: none).
    cube_value = TypedSmallIntegerField(domain="games_cube_value", default=1, db_default=1)
    cube_owner = TypedSmallIntegerField(domain="games_seat", null=True, blank=True)
    cube_offer = TypedSmallIntegerField(domain="games_seat", null=True, blank=True)
    cube_offer_by_server = models.BooleanField(default=False, db_default=False)
    turn_doubled_to = TypedSmallIntegerField(domain="nonneg_smallint", default=0, db_default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
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
    number = TypedIntegerField(domain="nonneg_integer")
    side = TypedCharField(max_length=1, domain="games_side")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="turns"
    )
    dice = ArrayField(models.PositiveSmallIntegerField(), size=2)
    # Null for the dice of a match from before provably fair dice.
    roll = TypedSmallIntegerField(domain="nonneg_smallint", null=True, blank=True)
    steps = models.JSONField(default=list, blank=True)
    board_after = ArrayField(models.SmallIntegerField(), size=24)
    by_server = models.BooleanField(default=False)
    # A double offered before this turn's roll and taken raised the cube to this (0: none).
    doubled_to = TypedSmallIntegerField(domain="nonneg_smallint", default=0, db_default=0)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField()

    class Meta:
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="turn_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} turn {self.number} ({self.side})"
