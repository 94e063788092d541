"""Record writes: a finished match counted once in both players' records (the profile's won and
lost, timeouts, abandoned matches, mars given and taken, win rate per rule set, head-to-head), and
taken out once when it is annulled.

The profile used to count these over every match and game of the player on each view the cache
had not kept (0.3-0.45 s at 100,000 matches, bench/profiles.py); kept as counters they cost the
profile a row per rule set. What counts is what the profile always showed: finished matches, not
aborted or cancelled ones, annulled ones left out (an annulment takes the match's mars out too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F
from django.utils import timezone

from ratings import hooks
from ratings.models import CountedMatch, HeadToHead, RecordCount


@dataclass(frozen=True)
class Outcome:
    """What a finished match adds to its players' records, as games tells it (ratings/hooks.py
    `match_outcome`): ratings does not read games' tables."""

    rule_set_name: str
    player_ids: tuple[int, int]  # the seats' players: creator (seat 0), opponent (seat 1)
    winner_id: int | None
    abandoned: bool  # ended because a player stayed away past the reconnect window
    timeouts: tuple[int, int]  # each seat's timeouts
    mars_won_by_seat: tuple[int, ...]  # the seat that won each mars game (docs/glossary.md)


def record_count_match(*, match: Any) -> bool:
    """Count a finished match in both players' records. Call it in the transaction that ends the
    match, once its games are written (games/services/context.py). A second call for the same
    match, in this transaction or any other, changes nothing (CountedMatch's row: whoever inserts
    it second waits for the first to commit, then finds it); a reverted match is never counted
    again. Returns whether the match was counted by this call."""
    _, created = CountedMatch.objects.get_or_create(match_id=match.pk)
    if created:
        _add(hooks.match_outcome(match), sign=1)
    return created


def record_revert_match(*, match_id: int) -> bool:
    """Take an annulled match out of both players' records, once (ratings.services
    .rating_revert_match calls it in the annulment's transaction). The UPDATE locks the
    CountedMatch row: a second caller waits, then finds it reverted and changes nothing. Returns
    whether the match was taken out by this call (False: never counted, or out already)."""
    taken = CountedMatch.objects.filter(match_id=match_id, reverted_at__isnull=True).update(
        reverted_at=timezone.now()
    )
    if taken:
        match = CountedMatch.objects.select_related("match").get(pk=match_id).match
        _add(hooks.match_outcome(match), sign=-1)
    return bool(taken)


def _add(match: Outcome, *, sign: int) -> None:
    """Add a match to its players' counters (sign 1) or take it out (-1). The rows are updated in
    user-id order, so two matches of the same players ending at once cannot deadlock."""
    mars = match.mars_won_by_seat
    seats = sorted([(match.player_ids[0], 0), (match.player_ids[1], 1)])
    for user_id, seat in seats:
        won = match.winner_id == user_id
        abandoned = not won and match.abandoned
        given = sum(1 for winner in mars if winner == seat)
        RecordCount.objects.bulk_create(
            [RecordCount(user_id=user_id, rule_set_name=match.rule_set_name)],
            ignore_conflicts=True,
        )
        RecordCount.objects.filter(user_id=user_id, rule_set_name=match.rule_set_name).update(
            played=F("played") + sign,
            won=F("won") + sign * int(won),
            timeouts=F("timeouts") + sign * match.timeouts[seat],
            abandoned=F("abandoned") + sign * int(abandoned),
            mars_given=F("mars_given") + sign * given,
            mars_taken=F("mars_taken") + sign * (len(mars) - given),
        )
    loser_id = next((user_id for user_id, _ in seats if user_id != match.winner_id), None)
    if match.winner_id is not None and loser_id is not None:
        HeadToHead.objects.bulk_create(
            [HeadToHead(winner_id=match.winner_id, loser_id=loser_id)], ignore_conflicts=True
        )
        HeadToHead.objects.filter(winner_id=match.winner_id, loser_id=loser_id).update(
            wins=F("wins") + sign
        )
