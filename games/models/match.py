"""The Match table: one row per challenge and match, locked by every command (games/models)."""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.fairness import commitment, new_server_seed
from games.models.choices import (
    CLIENT_SEED_REGEX,
    RESERVE_SECONDS_CHOICES,
    RULE_COLUMNS,
    SEED_REVEALED_STATUSES,
    SERVER_SEED_REGEX,
    TURN_SECONDS_CHOICES,
    BlockRelease,
    CubeRaise,
    DiceSource,
    EndReason,
    GameStarter,
    HeadException,
    MatchStatus,
    Opening,
    RuleSetName,
    SingleDie,
    SixBlock,
    TimeControl,
    new_invite_token,
)
from games.rules import RuleSet, rule_set
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
    # A direct challenge: a private challenge only this player may accept; it lapses
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
    # Who aborted the match before it really started, for the abort warning.
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
            # A player's matches, newest first, one ordered scan per seat from a key (keyset
            # paging: selectors.player_match_page). The id is in the index so that the whole
            # ORDER BY and the key's row comparison are the index's: the plan PostgreSQL keeps
            # for the prepared statement then never sorts the seat's matches (bench/profiles.py).
            models.Index(fields=["creator", "created_at", "id"], name="match_creator_key"),
            models.Index(fields=["opponent", "created_at", "id"], name="match_opponent_key"),
        ]

    def __str__(self) -> str:
        opponent = self.opponent.username if self.opponent_id else "…"
        return f"#{self.pk} {self.creator.username} – {opponent} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("match", kwargs={"match_id": self.pk})

    @property
    def rules(self) -> RuleSet:
        return _rules_of(self.rule_set_name, _rule_values(self))

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

    def timeouts(self, seat: int) -> int:
        return self.timeouts_creator if seat == 0 else self.timeouts_opponent

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


# The rule columns' values in RULE_COLUMNS' order, read in one C call (the tuple built field by
# field was 0.8 % of a Daphne process under bench/live_load.py).
_rule_values = attrgetter(*RULE_COLUMNS.values())


@lru_cache(maxsize=256)
def _rules_of(name: str, values: tuple[object, ...]) -> RuleSet:
    """A match's rule set, built (and validated) once per combination of its columns: rule sets
    are frozen values, and every command reads one (1.5 % of a Daphne process rebuilt it,
    bench/live_load.py). A bad column still raises ValueError each time (errors aren't cached)."""
    return rule_set(name, **dict(zip(RULE_COLUMNS, values, strict=True)))
