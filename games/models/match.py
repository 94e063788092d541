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
    RULE_COLUMNS,
    SEED_REVEALED_STATUSES,
    SERVER_SEED_REGEX,
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
from games.models.domains import TypedCharField, TypedIntegerField, TypedSmallIntegerField
from nardy import RuleSet, rule_set


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
    min_rating = TypedSmallIntegerField(
        _("lowest rating"), null=True, blank=True, domain="nonneg_smallint"
    )
    max_rating = TypedSmallIntegerField(
        _("highest rating"), null=True, blank=True, domain="nonneg_smallint"
    )
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)

    rule_set_name = TypedCharField(
        _("rule set"), max_length=16, choices=RuleSetName.choices, default=RuleSetName.TRADITIONAL,
        domain="games_rule_set_name",
    )  # fmt: skip
    six_block = TypedCharField(max_length=16, choices=SixBlock.choices, domain="games_six_block")
    head_exception = TypedCharField(
        max_length=16, choices=HeadException.choices, domain="games_head_exception"
    )
    opening = TypedCharField(max_length=16, choices=Opening.choices, domain="games_opening")
    undo_allowed = models.BooleanField()
    length = TypedSmallIntegerField(_("match length"), default=1, domain="games_match_length")
    # The columns added after the first release carry database defaults too, so rows written
    # without them (code of the previous release during a deploy, historical models in
    # migrations) get the engine's default instead of failing.
    single_die = TypedCharField(
        max_length=16, choices=SingleDie.choices, default="larger", db_default="larger",
        domain="games_single_die",
    )  # fmt: skip
    block_release = TypedCharField(
        max_length=16, choices=BlockRelease.choices, default="ahead", db_default="ahead",
        domain="games_block_release",
    )  # fmt: skip
    game_starter = TypedCharField(
        max_length=16, choices=GameStarter.choices, default="winner", db_default="winner",
        domain="games_game_starter",
    )  # fmt: skip
    doubling_cube = models.BooleanField(_("doubling cube"), default=False, db_default=False)
    cube_raise = TypedCharField(
        max_length=16, choices=CubeRaise.choices, default="geometric", db_default="geometric",
        domain="games_cube_raise",
    )  # fmt: skip
    crawford = models.BooleanField(_("Crawford rule"), default=True, db_default=True)
    # The number of the match's Crawford game once it has started (0: not yet).
    crawford_game = TypedSmallIntegerField(default=0, db_default=0, domain="nonneg_smallint")
    turn_seconds = TypedSmallIntegerField(
        _("seconds per turn"), null=True, blank=True, domain="games_turn_seconds"
    )
    reserve_seconds = TypedSmallIntegerField(
        _("reserve seconds"), default=0, domain="games_reserve_seconds"
    )
    # How the time is counted (nardy/clock.py); the seeds' clocks have fixed figures, so
    # turn_seconds and reserve_seconds belong to the platform's "turn" clock only.
    time_control = TypedCharField(
        _("time control"),
        domain="games_time_control",
        max_length=16,
        choices=TimeControl.choices,
        default=TimeControl.TURN,
        db_default=TimeControl.TURN,  # rows written before it (or by raw SQL) keep today's clock
    )
    # The correspondence clock's days per turn (nardy/clock.py), and only its.
    move_days = TypedSmallIntegerField(
        _("days per move"), null=True, blank=True, domain="games_move_days"
    )
    rated = models.BooleanField(_("rated"), default=True)

    status = TypedCharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.OPEN, db_index=True,
        domain="games_match_status",
    )  # fmt: skip
    score_creator = TypedSmallIntegerField(default=0, domain="nonneg_smallint")
    score_opponent = TypedSmallIntegerField(default=0, domain="nonneg_smallint")
    timeouts_creator = TypedSmallIntegerField(default=0, domain="nonneg_smallint")
    timeouts_opponent = TypedSmallIntegerField(default=0, domain="nonneg_smallint")
    reserve_ms_creator = TypedIntegerField(default=0, domain="nonneg_integer")
    reserve_ms_opponent = TypedIntegerField(default=0, domain="nonneg_integer")
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="won_matches",
        null=True, blank=True,
    )  # fmt: skip
    end_reason = TypedCharField(
        max_length=16, choices=EndReason.choices, blank=True, domain="games_end_reason"
    )
    # Who aborted the match before it really started, for the abort warning.
    aborted_by_seat = TypedSmallIntegerField(null=True, blank=True, domain="games_seat")
    rematch_offered_by = TypedSmallIntegerField(null=True, blank=True, domain="nonneg_smallint")
    rematch_declined = models.BooleanField(default=False)
    rematch = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of"
    )
    version = TypedIntegerField(default=0, domain="nonneg_integer")

    # Provably fair dice (games/fairness): the server seed is drawn when the challenge is made and
    # stays secret (no page, socket, export, log or admin form shows it) until the match ends;
    # its SHA-256 and both client seeds are public from the start.
    # The database defaults serve rows written by code that knows nothing of fair dice (a
    # migration test's historical models): no seeds, and dice that are not verifiable.
    server_seed = models.CharField(
        max_length=64, default=new_server_seed, db_default="", editable=False
    )
    client_seed_creator = TypedCharField(
        max_length=64, blank=True, db_default="", domain="games_client_seed"
    )
    client_seed_opponent = TypedCharField(
        max_length=64, blank=True, db_default="", domain="games_client_seed"
    )
    rematch_client_seed = TypedCharField(
        max_length=64, blank=True, db_default="", domain="games_client_seed"
    )
    # The offered rematch's server seed, drawn with the offer (only its hash is shown).
    rematch_server_seed = TypedCharField(
        max_length=64, blank=True, db_default="", editable=False,
        domain="games_rematch_server_seed",
    )  # fmt: skip
    dice_source = TypedCharField(
        max_length=8, choices=DiceSource.choices, default=DiceSource.FAIR,
        db_default=DiceSource.LEGACY, domain="games_dice_source",
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
        # A rule on one column is the column's type (games/models/domains.py: PostgreSQL checks
        # every constraint here at every UPDATE of the row); these tie columns together.
        constraints = [
            # No cube in one-point matches (nardy/cube.py).
            models.CheckConstraint(
                condition=Q(doubling_cube=False) | ~Q(length=1), name="match_cube_needs_length"
            ),
            # The seeds' clocks have their own figures: no turn time or reserve of the platform's.
            models.CheckConstraint(
                condition=Q(time_control="turn") | Q(turn_seconds__isnull=True, reserve_seconds=0),
                name="match_seed_clock_has_no_turn_settings",
            ),
            # Days per move are the correspondence clock's, and it always has them.
            models.CheckConstraint(
                condition=Q(time_control="correspondence", move_days__isnull=False)
                | (~Q(time_control="correspondence") & Q(move_days__isnull=True)),
                name="match_correspondence_has_days",
            ),
            # Untimed play only for casual matches.
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
            # (aborted_by_seat is a seat by its type.)
            models.CheckConstraint(
                condition=Q(aborted_by_seat__isnull=True) | Q(status="aborted"),
                name="match_aborted_by_a_seat",
            ),
            # A match that may still roll has a server seed to roll with.
            models.CheckConstraint(
                condition=~Q(status__in=["open", "active"])
                | Q(server_seed__regex=SERVER_SEED_REGEX),
                name="match_seeded_while_playing",
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
            # paging: games/match_list.py). The id is in the index so that the whole
            # ORDER BY and the key's row comparison are the index's: the plan PostgreSQL keeps
            # for the prepared statement then never sorts the seat's matches (bench/profiles.py).
            models.Index(fields=["creator", "created_at", "id"], name="match_creator_key"),
            models.Index(fields=["opponent", "created_at", "id"], name="match_opponent_key"),
            # A player's correspondence matches being played, per seat: the "Your turn" list,
            # the Correspondence tab and the limit on open ones (games/correspondence.py) read
            # these however many finished matches the player has.
            models.Index(
                fields=["creator"],
                name="match_correspondence_creator",
                condition=Q(time_control="correspondence", status__in=["open", "active"]),
            ),
            models.Index(
                fields=["opponent"],
                name="match_correspondence_opponent",
                condition=Q(time_control="correspondence", status="active"),
            ),
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

    @property
    def correspondence(self) -> bool:
        """Played over days (docs/rules.md, Platform rules, Correspondence): no table to sit at,
        no one-match-at-a-time, no socket or timer of its own."""
        return self.time_control == TimeControl.CORRESPONDENCE

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
