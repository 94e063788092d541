"""Factories for rating tests: finished rated matches written directly (the match flow itself is
tested in tests/games; here only the rating side matters), and the real flow where it counts."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import make_user


def finished_match(
    winner, loser, *, length: int = 1, rated: bool = True, counted: bool = True, **fields
):
    """A finished match between two players, won by `winner` (creator is the winner unless
    `creator=` says otherwise), counted in their records as the match flow does (unless
    `counted=False`: then call ratings.counts.record_count_match once its games are added)."""
    from games.models import Match
    from ratings.counts import record_count_match

    creator = fields.pop("creator", winner)
    opponent = loser if creator == winner else winner
    match = Match.objects.create(
        creator=creator,
        opponent=opponent,
        six_block="end_of_turn",
        head_exception="classic",
        opening="reroll",
        undo_allowed=True,
        length=length,
        turn_seconds=60,
        rated=rated,
        status="finished",
        winner=winner,
        end_reason=fields.pop("end_reason", "finished"),
        finished_at=fields.pop("finished_at", None) or timezone.now(),
        **fields,
    )
    if counted:
        record_count_match(match=match)
    return match


def play_rated(winner, loser, *, length: int = 1, **fields):
    """A finished rated match, applied to the ratings as the match flow does."""
    from ratings.services import rating_apply_match

    match = finished_match(winner, loser, length=length, **fields)
    rating_apply_match(match=match, winner_id=winner.pk, loser_id=loser.pk)
    return match


@pytest.fixture(autouse=True)
def _fresh_board_counts(monkeypatch):
    """Board sizes and ranks are cached for a minute (ratings/selectors.py); tests that change
    the boards between requests need them counted each time, never read from the cache that a
    site process of another test filled (test_leaderboards checks the cache on its own)."""
    monkeypatch.setattr("ratings.selectors.BOARD_COUNT_SECONDS", 0)


@pytest.fixture
def two_players(db):
    return make_user("anna", password=None), make_user("boris", password=None)
