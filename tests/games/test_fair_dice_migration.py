"""Migration 0006 (provably fair dice) on matches made before it: an open challenge is seeded and
plays fair dice, an active match is seeded to roll on but stays "legacy" (its earlier rolls cannot
be verified), a finished one is "legacy" with no seed."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.fairness.dice import is_client_seed, is_server_seed
from tests.factories import make_user

# Unapplying and reapplying the migrations costs a minute of a loaded core: make test-all only.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.migrations]

BEFORE = [("games", "0007_match_direct_challenge_rating_range_abort")]
AFTER = [("games", "0008_provably_fair_dice")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_matches_from_before_fair_dice():
    anna, boris = make_user("pre_anna"), make_user("pre_boris")  # accounts stays migrated
    try:
        check_the_migration(anna, boris)
    finally:  # whatever happens, the next tests get today's schema
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def check_the_migration(anna, boris):
    old = migrate(BEFORE)
    Match = old.get_model("games", "Match")
    rules = {"six_block": "end_of_turn", "head_exception": "classic", "opening": "reroll",
             "undo_allowed": True, "length": 1, "turn_seconds": 60}  # fmt: skip
    open_id = Match.objects.create(creator_id=anna.pk, status="open", **rules).pk
    active_id = Match.objects.create(
        creator_id=anna.pk, opponent_id=boris.pk, status="active", **rules
    ).pk
    finished_id = Match.objects.create(
        creator_id=boris.pk, opponent_id=anna.pk, status="finished", winner_id=anna.pk,
        end_reason="resigned",
        finished_at=timezone.now(), **rules,
    ).pk  # fmt: skip

    new = migrate(AFTER)
    Match = new.get_model("games", "Match")
    opened, active, finished = (
        Match.objects.get(pk=pk) for pk in (open_id, active_id, finished_id)
    )
    assert opened.dice_source == "fair" and is_server_seed(opened.server_seed)
    assert is_client_seed(opened.client_seed_creator)
    assert active.dice_source == "legacy" and is_server_seed(active.server_seed)
    assert all(
        is_client_seed(seed) for seed in (active.client_seed_creator, active.client_seed_opponent)
    )
    assert (finished.dice_source, finished.server_seed) == ("legacy", "")
    assert opened.server_seed != active.server_seed
