"""Migration 0002 keeps existing ratings and history (no player loses a rating)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

# Unapplying and reapplying the migrations costs a minute of a loaded core: make test-all only.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.migrations]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def before_ratings_0002() -> list[tuple[str, str]]:
    """Ratings at 0001, accounts as they are now. (Taking accounts back to 0001 too unapplied the
    bot accounts' migration, whose way back keeps the bots' names, so applying it again failed on
    them and left the database behind for the tests after this one.)"""
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    return [node for node in leaves if node[0] == "accounts"] + [("ratings", "0001_initial")]


def test_existing_ratings_and_history_survive():
    old = migrate(before_ratings_0002())
    User = old.get_model("accounts", "User")
    Match = old.get_model("games", "Match")
    Rating = old.get_model("ratings", "Rating")
    RatingChange = old.get_model("ratings", "RatingChange")
    anna = User.objects.create(username="old_anna", email="a@example.com")
    boris = User.objects.create(username="old_boris", email="b@example.com")
    match = Match.objects.create(
        creator=anna, opponent=boris, six_block="end_of_turn", head_exception="classic",
        opening="reroll", undo_allowed=True, length=5, turn_seconds=60, rated=True,
        status="finished", winner=anna, end_reason="resigned", finished_at=timezone.now(),
    )  # fmt: skip
    Rating.objects.create(user=anna, value=1516, matches=1, wins=1)
    Rating.objects.create(user=boris, value=1484, matches=1, wins=0)
    RatingChange.objects.create(user=anna, match=match, before=1500, after=1516)
    RatingChange.objects.create(user=boris, match=match, before=1500, after=1484)

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    from ratings.models import PeriodWins
    from ratings.models import Rating as NewRating
    from ratings.models import RatingChange as NewChange

    anna_now = NewRating.objects.get(user_id=anna.pk)
    assert (anna_now.rating, anna_now.value, anna_now.peak) == (Decimal(1516), 1516, Decimal(1516))
    assert (anna_now.experience, anna_now.matches, anna_now.wins) == (5, 1, 1)
    assert anna_now.last_rated_at is not None
    boris_now = NewRating.objects.get(user_id=boris.pk)
    assert (boris_now.rating, boris_now.peak, boris_now.experience) == (
        Decimal(1484),
        Decimal(1500),
        5,
    )  # he never was above his start
    change = NewChange.objects.get(user_id=boris.pk)
    assert (change.delta, change.length, change.won) == (Decimal(-16), 5, False)
    assert (change.opponent_id, change.opponent_rating) == (anna.pk, Decimal(1500))
    assert set(PeriodWins.objects.values_list("user_id", "period", "wins", "matches")) == {
        (anna.pk, "week", 1, 1), (anna.pk, "month", 1, 1),
        (boris.pk, "week", 0, 1), (boris.pk, "month", 0, 1),
    }  # fmt: skip
