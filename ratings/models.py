"""Ratings (FIBS formula, ratings/elo.py), their history, the wins counted per week and month,
and each player's record (the profile's counts).

Only ratings' services write these tables, in the transaction that ends a match
(`rating_apply_match` for a rated one, `record_count_match` for every finished one) and when a
match is annulled (`rating_revert_match`, which also takes the match out of the records).
"""

from __future__ import annotations

from typing import NamedTuple

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Cast, Round
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings import elo

INITIAL_RATING = int(elo.INITIAL_RATING)  # the whole number shown before a first rated match


class ShownRating(NamedTuple):
    """A rating as pages and sockets show it: the whole number, and whether it is provisional
    (shown with "?", ratings/elo.py PROVISIONAL_EXPERIENCE)."""

    value: int
    provisional: bool

    @classmethod
    def of(cls, value: int | None, experience: int | None) -> ShownRating:
        """From a Rating row's value and experience; a player without one is new at 1500."""
        if value is None:
            return NEW_PLAYER
        return cls(value, elo.is_provisional(experience or 0))


NEW_PLAYER = ShownRating(INITIAL_RATING, True)
RATING_DIGITS = {"max_digits": 10, "decimal_places": 4}  # elo.RATING_PLACES


class BoardRating(models.Model):
    """What every rating board keeps per player: the rating (FIBS formula, ratings/elo.py), the
    whole number pages show, the experience that makes it provisional, the counters and the
    last rated match. Live play's board (`Rating`) and the correspondence board
    (`CorrespondenceRating`) are each a table of these."""

    rating = models.DecimalField(_("rating"), default=elo.INITIAL_RATING, **RATING_DIGITS)
    # The whole number pages show, computed by PostgreSQL from `rating` (never written by us): the
    # games side reads it as before, and nothing can let the two disagree.
    value = models.GeneratedField(
        expression=Cast(Round(F("rating")), models.IntegerField()),
        output_field=models.IntegerField(),
        db_persist=True,
        verbose_name=_("rating (shown)"),
    )
    experience = models.PositiveIntegerField(
        _("experience"), default=0, help_text=_("the sum of the lengths of rated matches played")
    )
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    last_rated_at = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def provisional(self) -> bool:
        return elo.is_provisional(self.experience)


class Rating(BoardRating):
    """A player's current rating (one row per player, created at their first rated match)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    peak = models.DecimalField(_("peak rating"), default=elo.INITIAL_RATING, **RATING_DIGITS)
    # How many history rows (RatingChange) the player has, reverted ones included: the next one
    # is numbered one more (RatingChange.number).
    history_length = models.PositiveIntegerField(default=0, db_default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [
            # The boards' keys, every column ascending (the descending ones negated) so that a
            # row comparison seeks a page's first row (keyset paging, ratings/selectors.py).
            # The rating board: established players by rating.
            models.Index(
                -F("rating"),
                F("user"),
                name="rating_board_key",
                condition=Q(experience__gte=elo.PROVISIONAL_EXPERIENCE),
            ),
            # The all-time wins board: more wins, then fewer matches (the Omerta board).
            models.Index(
                -F("wins"),
                F("matches"),
                F("user"),
                name="rating_wins_board_key",
                condition=Q(wins__gt=0),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(wins__lte=models.F("matches")), name="rating_wins_le_matches"
            ),
            models.CheckConstraint(condition=Q(rating__gt=0), name="rating_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.rating}"


class BoardChange(models.Model):
    """What every rating board's history keeps of one player's change in one rated match: the
    rating before and after, the change, the match's length (the experience it gave), the result,
    when it counted and when an annulment took it back. Kept when the match is annulled, marked
    `reverted_at`, so the match can never be applied again. `RatingChange` and
    `CorrespondenceRatingChange` are each a table of these."""

    before = models.DecimalField(_("before"), **RATING_DIGITS)
    after = models.DecimalField(_("after"), **RATING_DIGITS)
    delta = models.DecimalField(_("change"), **RATING_DIGITS)
    length = models.PositiveSmallIntegerField(_("match length"))
    won = models.BooleanField(_("won"))
    # When the match ended (the week and month its win counts in).
    created_at = models.DateTimeField(default=timezone.now)
    reverted_at = models.DateTimeField(_("reverted"), null=True, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.user}: {self.before} → {self.after} (match #{self.match_id})"

    @property
    def shown_before(self) -> int:
        return elo.shown(self.before)

    @property
    def shown_after(self) -> int:
        return elo.shown(self.after)

    @property
    def shown_delta(self) -> int:
        """The change in whole numbers as the pages show the ratings (after − before, shown)."""
        return elo.shown(self.after) - elo.shown(self.before)


class RatingChange(BoardChange):
    """One player's rating change in one rated match of live play (two rows per match)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="rating_changes"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", null=True
    )
    opponent_rating = models.DecimalField(_("opponent's rating"), null=True, **RATING_DIGITS)
    # The player's n-th rated match (from 1, in the order applied; a reverted one keeps its
    # number): the rating chart picks its points by number, one index probe each, instead of
    # numbering the whole history on every draw (ratings/records.py).
    number = models.PositiveIntegerField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["user", "created_at"], name="rating_change_history"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="rating_change_once_per_match"),
            models.UniqueConstraint(fields=["user", "number"], name="rating_change_numbered"),
            models.CheckConstraint(
                condition=Q(after=F("before") + F("delta")), name="rating_change_sum"
            ),
        ]


class Period(models.TextChoices):
    WEEK = "week", _("week")
    MONTH = "month", _("month")


class PeriodWins(models.Model):
    """Rated matches won and played per player per calendar week (from Monday) and month, in the
    site's time zone: the week and month boards read one indexed range of this table instead of
    counting matches."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    period = models.CharField(max_length=5, choices=Period.choices)
    starts_on = models.DateField()
    wins = models.PositiveIntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("wins in a period")
        verbose_name_plural = _("wins in a period")
        indexes = [
            # Keyset order as on Rating's boards (ratings/selectors.py).
            models.Index(
                F("period"),
                F("starts_on"),
                -F("wins"),
                F("matches"),
                F("user"),
                name="period_wins_board_key",
            )
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["period", "starts_on", "user"], name="period_wins_once_per_player"
            ),
            models.CheckConstraint(condition=Q(period__in=Period.values), name="period_valid"),
            models.CheckConstraint(
                condition=Q(wins__lte=F("matches")), name="period_wins_le_matches"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.period} {self.starts_on}: {self.wins}/{self.matches}"


class RecordCount(models.Model):
    """A player's finished matches that count on their profile (annulled ones do not), per rule
    set: played, won, the player's timeouts, matches lost by abandoning them, mars given and
    taken in their games. Kept in the transaction that ends a match (and taken back in the one
    that annuls it: ratings/counts.py), so a profile reads a row per rule set however many
    matches the player has, where counting them took 0.3-0.45 s at 100,000 (bench/profiles.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    rule_set_name = models.CharField(_("rule set"), max_length=16)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    timeouts = models.PositiveIntegerField(default=0)
    abandoned = models.PositiveIntegerField(default=0)
    mars_given = models.PositiveIntegerField(default=0)
    mars_taken = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("record")
        verbose_name_plural = _("records")
        constraints = [
            models.UniqueConstraint(fields=["user", "rule_set_name"], name="record_once_per_rules"),
            # An abandoned match is a lost one.
            models.CheckConstraint(
                condition=Q(won__lte=F("played") - F("abandoned")), name="record_counts_add_up"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.rule_set_name}: {self.won}/{self.played}"


class HeadToHead(models.Model):
    """How many finished matches (annulled ones left out) `winner` won against `loser`: the
    profile's "you and them" line, two rows, kept with the records."""

    winner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    loser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    wins = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("head-to-head wins")
        verbose_name_plural = _("head-to-head wins")
        constraints = [
            models.UniqueConstraint(fields=["winner", "loser"], name="head_to_head_once_per_pair")
        ]

    def __str__(self) -> str:
        return f"{self.winner_id} beat {self.loser_id} {self.wins}×"


class CountedMatch(models.Model):
    """A finished match counted in its players' records; marked `reverted_at` when it is taken
    out again (annulled). Counting and taking out each happen once, whoever calls and however
    often: the row is the proof, as RatingChange is for ratings."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    counted_at = models.DateTimeField(default=timezone.now)
    reverted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("counted match")
        verbose_name_plural = _("counted matches")

    def __str__(self) -> str:
        return f"match #{self.match_id}" + (" (reverted)" if self.reverted_at else "")


class CorrespondenceRating(BoardRating):
    """A player's rating in correspondence matches (docs/rules.md, Platform rules,
    Correspondence): a board of its own beside live play's, as lichess keeps one, by the same
    FIBS formula from 1500. One row per player, created at their first rated correspondence
    match."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="correspondence_rating"
    )

    class Meta:
        verbose_name = _("correspondence rating")
        verbose_name_plural = _("correspondence ratings")
        constraints = [
            models.CheckConstraint(
                condition=Q(wins__lte=models.F("matches")), name="correspondence_wins_le_matches"
            ),
            models.CheckConstraint(condition=Q(rating__gt=0), name="correspondence_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.rating} (correspondence)"


class CorrespondenceRatingChange(BoardChange):
    """One player's correspondence rating change in one rated correspondence match."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
        related_name="correspondence_rating_changes",
    )  # fmt: skip
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="correspondence_rating_changes"
    )

    class Meta:
        verbose_name = _("correspondence rating change")
        verbose_name_plural = _("correspondence rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match"], name="correspondence_change_once_per_match"
            ),
            models.CheckConstraint(
                condition=Q(after=F("before") + F("delta")), name="correspondence_change_sum"
            ),
        ]
