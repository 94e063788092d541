"""The quick-pairing pool in PostgreSQL: it survives any Daphne restart, and every pairing is a
transaction over locked rows (pairing/services.py), so a wait ends in at most one match.

- `PoolEntry`: one row per waiting player (the user is the key: one pool per player).
- `Proposal`: a pair 400 points or more apart, waiting for both to confirm within 15 s.
- `PairedWait`: each wait that ended in a match, keyed by the wait's id: a second match from
  the same wait would break the primary key, whatever raced.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.fairness import new_server_seed
from games.models import CLIENT_SEED_REGEX, SERVER_SEED_REGEX, TURN_SECONDS_CHOICES, RuleSetName
from nardy.ruleset import MATCH_LENGTHS, RULE_SET_NAMES


class Proposal(models.Model):
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("pairing proposal")
        verbose_name_plural = _("pairing proposals")

    def __str__(self) -> str:
        return f"proposal #{self.pk}"


class PoolEntry(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="pool_entry",
    )  # fmt: skip
    wait_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    rule_set_name = models.CharField(_("rule set"), max_length=16, choices=RuleSetName.choices)
    length = models.PositiveSmallIntegerField(_("match length"))
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"))
    rated = models.BooleanField(_("rated"))
    rating = models.FloatField(help_text=_("the rating the player joined with"))
    joined_at = models.DateTimeField()
    proposal = models.ForeignKey(
        Proposal, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    accepted = models.BooleanField(default=False)
    # Provably fair dice (games/fairness): the player's browser's client seed, sent with the join,
    # and the secret server seed the Play page committed to before the join (games/next_seed.py;
    # only its SHA-256 is ever shown). A pair plays on the server seed of whoever joined first.
    client_seed = models.CharField(max_length=64)
    server_seed = models.CharField(max_length=64, default=new_server_seed, editable=False)

    class Meta:
        verbose_name = _("waiting player")
        verbose_name_plural = _("waiting players")
        constraints = [
            models.CheckConstraint(
                condition=Q(rule_set_name__in=RULE_SET_NAMES), name="pool_entry_rule_set_valid"
            ),
            models.CheckConstraint(
                condition=Q(length__in=MATCH_LENGTHS), name="pool_entry_length_valid"
            ),
            models.CheckConstraint(
                condition=Q(client_seed__regex=CLIENT_SEED_REGEX) & ~Q(client_seed=""),
                name="pool_entry_client_seed_valid",
            ),
            models.CheckConstraint(
                condition=Q(server_seed__regex=SERVER_SEED_REGEX),
                name="pool_entry_server_seed_valid",
            ),
            models.CheckConstraint(
                condition=Q(turn_seconds__in=TURN_SECONDS_CHOICES),
                name="pool_entry_turn_seconds_valid",
            ),
            # Only a player in a proposal can have accepted it.
            models.CheckConstraint(
                condition=Q(accepted=False) | Q(proposal__isnull=False),
                name="pool_entry_accepts_a_proposal",
            ),
        ]
        indexes = [
            models.Index(
                fields=["rule_set_name", "length", "turn_seconds", "rated", "joined_at"],
                name="pool_entry_pool_joined",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} waiting in {self.rule_set_name}.{self.length}.{self.turn_seconds}"


class PairedWait(models.Model):
    wait_id = models.UUIDField(primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="paired_waits"
    )
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="paired_waits")
    waited_seconds = models.FloatField()
    paired_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("paired wait")
        verbose_name_plural = _("paired waits")
        constraints = [
            # Each player once per match.
            models.UniqueConstraint(fields=["match", "user"], name="paired_wait_one_per_player"),
        ]

    def __str__(self) -> str:
        return f"wait {self.wait_id} of {self.user_id} → match #{self.match_id}"
