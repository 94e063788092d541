"""Matches, their games and the append-only move log. PostgreSQL is the single source of truth.

Every command locks the Match row (`select_for_update`) before touching the match or its current
game: that row lock is our one-actor-per-game (lila's RoundAsyncActor). `Match.version` is bumped
by every change and carried by every socket event (docs/protocol.md).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.fairness import commitment, new_server_seed
from games.rules import RuleSet, rule_set
from games.rules.cube import CUBE_RESULT, DROP_RESULT, MAX_CUBE_VALUE
from games.rules.ruleset import (
    BLOCK_RELEASES,
    CUBE_RAISES,
    GAME_STARTERS,
    HEAD_EXCEPTIONS,
    MATCH_LENGTHS,
    OPENING_MODES,
    RULE_SET_NAMES,
    SINGLE_DIE_MODES,
    SIX_BLOCK_MODES,
    TIME_CONTROLS,
)

# The Match columns of each engine rule option (RuleSet field -> column): `Match.rules` reads
# them, `rule_columns` writes them.
RULE_COLUMNS = {
    "six_block": "six_block",
    "head_exception": "head_exception",
    "opening": "opening",
    "undo_allowed": "undo_allowed",
    "match_length": "length",
    "single_die": "single_die",
    "block_release": "block_release",
    "game_starter": "game_starter",
    "doubling_cube": "doubling_cube",
    "cube_raise": "cube_raise",
    "crawford": "crawford",
}


def rule_columns(rules: RuleSet) -> dict[str, object]:
    """A Match row's rule columns for an engine rule set."""
    return {column: getattr(rules, option) for option, column in RULE_COLUMNS.items()}


def _engine_choices(name: str, values: tuple[str, ...], labels: dict[str, str]):
    """TextChoices whose values are the engine's vocabulary (games/rules/ruleset.py); the labels
    are the site's words. A value without a label, or a label without a value, fails at import."""
    if set(labels) != set(values):
        raise ValueError(f"{name}: labels {sorted(labels)} do not match the engine's {values}")
    return models.TextChoices(name, [(value.upper(), (value, labels[value])) for value in values])


RuleSetName = _engine_choices(
    "RuleSetName",
    RULE_SET_NAMES,
    {"traditional": _("Traditional"), "tournament": _("Tournament")},
)
SixBlock = _engine_choices(
    "SixBlock",
    SIX_BLOCK_MODES,
    {
        "end_of_turn": _("checked at the end of the turn"),
        "every_step": _("checked at every step"),
    },
)
HeadException = _engine_choices(
    "HeadException",
    HEAD_EXCEPTIONS,
    {
        "classic": _("classic (6-6, 4-4, 3-3 on the first turn)"),
        "generalised": _("generalised (also when one head checker is blocked)"),
    },
)
Opening = _engine_choices(
    "Opening",
    OPENING_MODES,
    {
        "reroll": _("the starter rolls again"),
        "play_roll": _("the starter plays the opening roll"),
    },
)

SingleDie = _engine_choices(
    "SingleDie",
    SINGLE_DIE_MODES,
    {
        "larger": _("the larger die when only one can be played"),
        "choice": _("the player chooses the die when only one can be played"),
    },
)
BlockRelease = _engine_choices(
    "BlockRelease",
    BLOCK_RELEASES,
    {
        "ahead": _("once an opposing checker is ahead of it"),
        "home": _("once an opposing checker has reached its home"),
    },
)
GameStarter = _engine_choices(
    "GameStarter",
    GAME_STARTERS,
    {
        "winner": _("the winner of the previous game"),
        "opening_roll": _("a new opening roll before every game"),
    },
)
CubeRaise = _engine_choices(
    "CubeRaise",
    CUBE_RAISES,
    {
        "geometric": _("geometric (1, 2, 4, 8 …)"),
        "arithmetic": _("arithmetic (1, 2, 3, 4 …)"),
    },
)


TimeControl = _engine_choices(
    "TimeControl",
    TIME_CONTROLS,
    {
        "turn": _("seconds per turn, with an optional reserve"),
        "nardeon": _("NARDEON: 12 s per turn free, then a 2-minute reserve, at most 60 s a turn"),
        "omerta": _("Omerta: 90 s, started again after each step"),
    },
)


class MatchStatus(models.TextChoices):
    OPEN = "open", _("waiting for an opponent")
    ACTIVE = "active", _("in play")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")
    ABORTED = "aborted", _("aborted")


class EndReason(models.TextChoices):
    FINISHED = "finished", _("played to the end")
    RESIGNED = "resigned", _("resigned")
    LEFT = "left", _("left the table")
    TIMEOUTS = "timeouts", _("three timeouts")
    ABORTED = "aborted", _("aborted")
    # A moderator banned the loser during the match (issue 14).
    BANNED = "banned", _("banned by a moderator")
    TIME = "time", _("ran out of time")
    ABANDONED = "abandoned", _("abandoned the match")


class GameResult(models.TextChoices):
    OIN = "oin", _("oin (1 point)")
    MARS = "mars", _("mars (2 points)")
    CUBE = CUBE_RESULT, _("won at the cube's value")
    DROP = DROP_RESULT, _("double declined")


class Phase(models.TextChoices):
    ROLL = "roll", _("to roll")
    MOVE = "move", _("to move")
    OVER = "over", _("over")


class DiceSource(models.TextChoices):
    """Where a match's dice came from: only "fair" ones can be verified (games/fairness)."""

    FAIR = "fair", _("provably fair")
    FIXED = "fixed", _("fixed by a test")
    LEGACY = "legacy", _("rolled before provably fair dice")


# A revealed or secret server seed, and a client seed (games/fairness/dice.py).
SERVER_SEED_REGEX = r"^[0-9a-f]{64}$"
CLIENT_SEED_REGEX = r"^[A-Za-z0-9_-]{0,64}$"
# The server seed is revealed once a match can roll no more dice.
SEED_REVEALED_STATUSES = ("finished", "aborted", "cancelled")

TURN_SECONDS_CHOICES = (30, 60, 90, 120)
RESERVE_SECONDS_CHOICES = (0, 60, 120, 300)
SIDES = ("w", "b")


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class Match(models.Model):
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches",
        verbose_name=_("creator (seat 0)"),
    )  # fmt: skip
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="joined_matches",
        null=True, blank=True, verbose_name=_("opponent (seat 1)"),
    )  # fmt: skip
    private = models.BooleanField(_("private invite"), default=False)
    # A direct challenge (issue 15): a private challenge only this player may accept; it lapses
    # at `expires_at` (games/services/challenges.py).
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received",
        null=True, blank=True, verbose_name=_("challenged player"),
    )  # fmt: skip
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # An open challenge's rating range: only players inside it may accept (either end optional).
    min_rating = models.PositiveSmallIntegerField(_("lowest rating"), null=True, blank=True)
    max_rating = models.PositiveSmallIntegerField(_("highest rating"), null=True, blank=True)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)

    rule_set_name = models.CharField(
        _("rule set"), max_length=16, choices=RuleSetName.choices, default=RuleSetName.TRADITIONAL
    )
    six_block = models.CharField(max_length=16, choices=SixBlock.choices)
    head_exception = models.CharField(max_length=16, choices=HeadException.choices)
    opening = models.CharField(max_length=16, choices=Opening.choices)
    undo_allowed = models.BooleanField()
    length = models.PositiveSmallIntegerField(_("match length"), default=1)
    # The columns added after the first release carry database defaults too, so rows written
    # without them (code of the previous release during a deploy, historical models in
    # migrations) get the engine's default instead of failing.
    single_die = models.CharField(
        max_length=16, choices=SingleDie.choices, default="larger", db_default="larger"
    )
    block_release = models.CharField(
        max_length=16, choices=BlockRelease.choices, default="ahead", db_default="ahead"
    )
    game_starter = models.CharField(
        max_length=16, choices=GameStarter.choices, default="winner", db_default="winner"
    )
    doubling_cube = models.BooleanField(_("doubling cube"), default=False, db_default=False)
    cube_raise = models.CharField(
        max_length=16, choices=CubeRaise.choices, default="geometric", db_default="geometric"
    )
    crawford = models.BooleanField(_("Crawford rule"), default=True, db_default=True)
    # The number of the match's Crawford game once it has started (0: not yet).
    crawford_game = models.PositiveSmallIntegerField(default=0, db_default=0)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), null=True, blank=True)
    reserve_seconds = models.PositiveSmallIntegerField(_("reserve seconds"), default=0)
    # How the time is counted (games/rules/clock.py); the seeds' clocks have fixed figures, so
    # turn_seconds and reserve_seconds belong to the platform's "turn" clock only.
    time_control = models.CharField(
        _("time control"),
        max_length=16,
        choices=TimeControl.choices,
        default=TimeControl.TURN,
        db_default=TimeControl.TURN,  # rows written before it (or by raw SQL) keep today's clock
    )
    rated = models.BooleanField(_("rated"), default=True)

    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.OPEN, db_index=True
    )
    score_creator = models.PositiveSmallIntegerField(default=0)
    score_opponent = models.PositiveSmallIntegerField(default=0)
    timeouts_creator = models.PositiveSmallIntegerField(default=0)
    timeouts_opponent = models.PositiveSmallIntegerField(default=0)
    reserve_ms_creator = models.PositiveIntegerField(default=0)
    reserve_ms_opponent = models.PositiveIntegerField(default=0)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="won_matches",
        null=True, blank=True,
    )  # fmt: skip
    end_reason = models.CharField(max_length=16, choices=EndReason.choices, blank=True)
    # Who aborted the match before it really started (issue 15), for the abort warning.
    aborted_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    rematch_offered_by = models.PositiveSmallIntegerField(null=True, blank=True)
    rematch_declined = models.BooleanField(default=False)
    rematch = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of"
    )
    version = models.PositiveIntegerField(default=0)

    # Provably fair dice (games/fairness): the server seed is drawn when the challenge is made and
    # stays secret (no page, socket, export, log or admin form shows it) until the match ends;
    # its SHA-256 and both client seeds are public from the start.
    # The database defaults serve rows written by code that knows nothing of fair dice (a
    # migration test's historical models): no seeds, and dice that are not verifiable.
    server_seed = models.CharField(
        max_length=64, default=new_server_seed, db_default="", editable=False
    )
    client_seed_creator = models.CharField(max_length=64, blank=True, db_default="")
    client_seed_opponent = models.CharField(max_length=64, blank=True, db_default="")
    rematch_client_seed = models.CharField(max_length=64, blank=True, db_default="")
    # The offered rematch's server seed, drawn with the offer (only its hash is shown).
    rematch_server_seed = models.CharField(max_length=64, blank=True, db_default="", editable=False)
    dice_source = models.CharField(
        max_length=8, choices=DiceSource.choices, default=DiceSource.FAIR,
        db_default=DiceSource.LEGACY,
    )  # fmt: skip

    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_activity_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # A moderator annulled the finished match (moderation.services.match_annul): it stays in the
    # history, marked, and its rating changes are reverted.
    annulled_at = models.DateTimeField(_("annulled"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=MatchStatus.values), name="match_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(end_reason__in=[*EndReason.values, ""]), name="match_end_reason_valid"
            ),
            models.CheckConstraint(
                condition=Q(length__in=MATCH_LENGTHS), name="match_length_valid"
            ),
            # The rule options hold only the engine's values (games/rules/ruleset.py).
            models.CheckConstraint(
                condition=Q(rule_set_name__in=RULE_SET_NAMES), name="match_rule_set_name_valid"
            ),
            models.CheckConstraint(
                condition=Q(six_block__in=SIX_BLOCK_MODES), name="match_six_block_valid"
            ),
            models.CheckConstraint(
                condition=Q(head_exception__in=HEAD_EXCEPTIONS), name="match_head_exception_valid"
            ),
            models.CheckConstraint(
                condition=Q(opening__in=OPENING_MODES), name="match_opening_valid"
            ),
            models.CheckConstraint(
                condition=Q(single_die__in=SINGLE_DIE_MODES), name="match_single_die_valid"
            ),
            models.CheckConstraint(
                condition=Q(block_release__in=BLOCK_RELEASES), name="match_block_release_valid"
            ),
            models.CheckConstraint(
                condition=Q(game_starter__in=GAME_STARTERS), name="match_game_starter_valid"
            ),
            models.CheckConstraint(
                condition=Q(cube_raise__in=CUBE_RAISES), name="match_cube_raise_valid"
            ),
            # No cube in one-point matches (games/rules/cube.py).
            models.CheckConstraint(
                condition=Q(doubling_cube=False) | ~Q(length=1), name="match_cube_needs_length"
            ),
            models.CheckConstraint(
                condition=Q(turn_seconds__isnull=True) | Q(turn_seconds__in=TURN_SECONDS_CHOICES),
                name="match_turn_seconds_valid",
            ),
            models.CheckConstraint(
                condition=Q(reserve_seconds__in=RESERVE_SECONDS_CHOICES),
                name="match_reserve_seconds_valid",
            ),
            models.CheckConstraint(
                condition=Q(time_control__in=TIME_CONTROLS), name="match_time_control_valid"
            ),
            # The seeds' clocks have their own figures: no turn time or reserve of the platform's.
            models.CheckConstraint(
                condition=Q(time_control="turn") | Q(turn_seconds__isnull=True, reserve_seconds=0),
                name="match_seed_clock_has_no_turn_settings",
            ),
            # Untimed play only for casual matches (issue: timed play).
            models.CheckConstraint(
                condition=Q(rated=False) | Q(turn_seconds__isnull=False) | ~Q(time_control="turn"),
                name="match_rated_is_timed",
            ),
            # Nobody plays against themselves: one seat per player per match.
            models.CheckConstraint(
                condition=Q(opponent__isnull=True) | ~Q(opponent=F("creator")),
                name="match_two_distinct_players",
            ),
            # An open or active match has no winner; a finished one has a reason.
            models.CheckConstraint(
                condition=~Q(status__in=["open", "active"]) | Q(winner__isnull=True, end_reason=""),
                name="match_no_result_while_playing",
            ),
            # Only a finished match can be annulled.
            models.CheckConstraint(
                condition=Q(annulled_at__isnull=True) | Q(status="finished"),
                name="match_annulled_is_finished",
            ),
            models.CheckConstraint(
                condition=Q(status="open") | Q(status="cancelled") | Q(opponent__isnull=False),
                name="match_started_has_opponent",
            ),
            # A direct challenge is private, to someone else.
            models.CheckConstraint(
                condition=Q(invited__isnull=True) | (Q(private=True) & ~Q(invited=F("creator"))),
                name="match_invited_is_private_other",
            ),
            models.CheckConstraint(
                condition=Q(min_rating__isnull=True)
                | Q(max_rating__isnull=True)
                | Q(min_rating__lte=F("max_rating")),
                name="match_rating_range_ordered",
            ),
            models.CheckConstraint(
                condition=Q(aborted_by_seat__isnull=True)
                | Q(aborted_by_seat__in=(0, 1), status="aborted"),
                name="match_aborted_by_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(dice_source__in=DiceSource.values), name="match_dice_source_valid"
            ),
            # A match that may still roll has a server seed to roll with.
            models.CheckConstraint(
                condition=~Q(status__in=["open", "active"])
                | Q(server_seed__regex=SERVER_SEED_REGEX),
                name="match_seeded_while_playing",
            ),
            models.CheckConstraint(
                condition=Q(client_seed_creator__regex=CLIENT_SEED_REGEX)
                & Q(client_seed_opponent__regex=CLIENT_SEED_REGEX)
                & Q(rematch_client_seed__regex=CLIENT_SEED_REGEX),
                name="match_client_seeds_valid",
            ),
            models.CheckConstraint(
                condition=Q(rematch_server_seed="")
                | Q(rematch_server_seed__regex=SERVER_SEED_REGEX),
                name="match_rematch_server_seed_valid",
            ),
            # At most one open public challenge per player (no lobby spam).
            models.UniqueConstraint(
                fields=["creator"],
                condition=Q(status="open", private=False),
                name="match_one_open_challenge_per_player",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="match_status_created"),
            # A player's matches, newest first, one ordered scan per seat (selectors.PlayerMatches).
            models.Index(fields=["creator", "-created_at"], name="match_creator_created"),
            models.Index(fields=["opponent", "-created_at"], name="match_opponent_created"),
        ]

    def __str__(self) -> str:
        opponent = self.opponent.username if self.opponent_id else "…"
        return f"#{self.pk} {self.creator.username} – {opponent} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("match", kwargs={"match_id": self.pk})

    @property
    def rules(self) -> RuleSet:
        return rule_set(
            self.rule_set_name,
            **{option: getattr(self, column) for option, column in RULE_COLUMNS.items()},
        )

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        if user_id == self.creator_id:
            return 0
        if user_id == self.opponent_id:
            return 1
        return None

    def player_id(self, seat: int) -> int | None:
        return self.creator_id if seat == 0 else self.opponent_id

    def reserve_ms(self, seat: int) -> int:
        """What is left of a seat's reserve bank (spent once the turn time is gone)."""
        return self.reserve_ms_creator if seat == 0 else self.reserve_ms_opponent

    def set_reserve_ms(self, seat: int, value: int) -> None:
        if seat == 0:
            self.reserve_ms_creator = value
        else:
            self.reserve_ms_opponent = value

    def timeouts(self, seat: int) -> int:
        return self.timeouts_creator if seat == 0 else self.timeouts_opponent

    def add_timeout(self, seat: int) -> int:
        """Count a timeout against a seat; returns that seat's count now."""
        if seat == 0:
            self.timeouts_creator += 1
        else:
            self.timeouts_opponent += 1
        return self.timeouts(seat)

    @property
    def client_seeds(self) -> tuple[str, str]:
        return (self.client_seed_creator, self.client_seed_opponent)

    @property
    def server_seed_hash(self) -> str:
        """The published commitment to the (secret) server seed."""
        return commitment(self.server_seed) if self.server_seed else ""

    @property
    def seed_revealed(self) -> bool:
        return self.status in SEED_REVEALED_STATUSES

    @property
    def scores(self) -> tuple[int, int]:
        return (self.score_creator, self.score_opponent)

    @property
    def is_live(self) -> bool:
        return self.status == MatchStatus.ACTIVE


class Game(models.Model):
    """One game of a match, with its live state while it is played."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    white_seat = models.PositiveSmallIntegerField(
        help_text=_("seat (0 creator, 1 opponent) playing White")
    )
    # The one-die opening roll of game 1 (RULES.md "Who starts"); later games are started by the
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

    def side_of_seat(self, seat: int) -> str:
        return "w" if seat == self.white_seat else "b"

    def has_moved(self, side: str) -> bool:
        return self.white_has_moved if side == "w" else self.black_has_moved


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
