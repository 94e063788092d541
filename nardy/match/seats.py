"""The match's seats and seeds: taking seat 1 of an open challenge, the creator's client seed, and
the rematch of a finished match (docs/protocol.md, `accept`, `client_seed`, `rematch`,
`rematch_decline`). Each returns (new state, events) like every operation; a refusal is a
``MatchRuleError`` with the protocol's code.

What needs the database (bans, blocks, a player's other matches) the site checks before; what
needs chance (a seed drawn) or the clock comes in as data.
"""

from __future__ import annotations

from datetime import datetime

from .events import Cancelled, Event, apply_event
from .operations import require_status
from .seat_events import ClientSeedSet, RematchAccepted, RematchDeclined, RematchOffered, Seated
from .state import (
    Candidate,
    MatchRuleError,
    MatchState,
    RematchTerms,
)


def rating_in_range(rating: int, lowest: int | None, highest: int | None) -> bool:
    """Whether a player of ``rating`` may accept a challenge asking for [lowest, highest] (either
    end optional; the lobby lists only what a player may accept)."""
    return (lowest is None or rating >= lowest) and (highest is None or rating <= highest)


def _refuse_candidate(state: MatchState, candidate: Candidate, now: datetime) -> None:
    """MatchRuleError when ``candidate`` may not take seat 1 (the order is the protocol's: the
    challenge's own conditions, then the player's)."""
    require_status(state, "open", "match_not_active", "this challenge is no longer open")
    challenge = state.challenge
    if challenge.invited is not None and challenge.invited != candidate.user:
        raise MatchRuleError("not_invited", "this challenge is for another player")
    if challenge.invite_token is not None and candidate.token != challenge.invite_token:
        raise MatchRuleError("not_found", "this invitation link is not valid")
    if challenge.expires_at is not None and challenge.expires_at <= now:
        raise MatchRuleError("match_not_active", "this challenge has expired")
    if state.players[0] == candidate.user:
        raise MatchRuleError("not_a_player", "you cannot accept your own challenge")
    if not candidate.active:
        raise MatchRuleError("not_a_player", "this account is not active")
    if challenge.rated and not candidate.may_play_rated:
        raise MatchRuleError("guest_not_rated", "guests play casual games only")
    if not rating_in_range(candidate.rating, challenge.min_rating, challenge.max_rating):
        raise MatchRuleError("outside_range", "your rating is outside the range asked for")


def accept(
    state: MatchState, *, candidate: Candidate, now: datetime
) -> tuple[MatchState, list[Event]]:
    """``candidate`` takes seat 1 with their client seed; ``begin`` starts game 1 next (its dice
    need both seeds, so the site writes the seat before it draws)."""
    _refuse_candidate(state, candidate, now)
    event = Seated(player=candidate.user, client_seed=candidate.client_seed)
    return apply_event(state, event), [event]


def decline_challenge(
    state: MatchState, *, user: int, now: datetime
) -> tuple[MatchState, list[Event]]:
    """The challenged player (``user``) says no to a direct challenge: it is withdrawn."""
    if state.challenge.invited != user:
        raise MatchRuleError("not_invited", "this challenge is for another player")
    require_status(state, "open", "match_not_active", "this challenge is no longer open")
    event = Cancelled(at=now)
    return apply_event(state, event), [event]


def set_client_seed(
    state: MatchState, *, seat: int | None, client_seed: str
) -> tuple[MatchState, list[Event]]:
    """The creator replaces their client seed while the challenge is open (games/fairness: no
    die is rolled before the start, so no seed can be chosen against a known roll)."""
    if seat != 0:
        raise MatchRuleError("not_a_player", "only the creator can change this seed")
    require_status(state, "open", "match_not_active", "the seeds are fixed once the match started")
    event = ClientSeedSet(seat=0, client_seed=client_seed)
    return apply_event(state, event), [event]


def _require_rematch_open(state: MatchState) -> None:
    if state.status != "finished" or state.end_reason == "aborted":
        raise MatchRuleError("match_not_finished", "a rematch is offered after the match")
    if state.rematch.match_id is not None:
        raise MatchRuleError("match_not_finished", "the rematch has already started")


def rematch_terms(
    state: MatchState, *, seat: int, client_seed: str, fresh_client_seed: str,
    fresh_server_seed: str, bot_seat: int | None = None,
) -> RematchTerms | None:  # fmt: skip
    """What ``seat`` asking for a rematch with ``client_seed`` starts: the terms of the new match
    when the opponent's offer stands (or the opponent is the computer, ``bot_seat``, which
    accepts at once), None when it is an offer (``offer_rematch``). The accepting player sits in
    seat 0; an offerer who sent no seed, and the computer, get ``fresh_client_seed``, and the
    server seed is the one drawn with the offer (``fresh_server_seed`` when none was)."""
    _require_rematch_open(state)
    offer = state.rematch
    if offer.offered_by is not None and offer.offered_by == 1 - seat:
        seeds = (client_seed, offer.client_seed or fresh_client_seed)
        return RematchTerms(seat, seeds, offer.server_seed or fresh_server_seed)  # type: ignore[arg-type]
    if bot_seat is not None and bot_seat == 1 - seat:
        return RematchTerms(bot_seat, (fresh_client_seed, client_seed), fresh_server_seed)  # type: ignore[arg-type]
    return None


def offer_rematch(
    state: MatchState, *, seat: int, client_seed: str, server_seed: str
) -> tuple[MatchState, list[Event]]:
    """``seat`` offers a rematch (again: the offer's server seed stays the one drawn first, so
    its published hash holds; ``server_seed`` serves a first offer)."""
    _require_rematch_open(state)
    seed = state.rematch.server_seed or server_seed
    event = RematchOffered(seat=seat, client_seed=client_seed, server_seed=seed)  # type: ignore[arg-type]
    return apply_event(state, event), [event]


def decline_rematch(state: MatchState, *, seat: int) -> tuple[MatchState, list[Event]]:
    """Decline the opponent's offer, or withdraw one's own."""
    if state.rematch.offered_by is None:
        raise MatchRuleError("match_not_finished", "there is no rematch offer")
    event = RematchDeclined(seat=seat)  # type: ignore[arg-type]
    return apply_event(state, event), [event]


def accept_rematch(
    state: MatchState, *, seat: int, terms: RematchTerms, match_id: int
) -> tuple[MatchState, list[Event]]:
    """The rematch of ``terms`` (``rematch_terms``) started as match ``match_id``: the offer is
    settled. ``seat`` is the player whose command it was."""
    _require_rematch_open(state)
    event = RematchAccepted(seat=seat, terms=terms, match_id=match_id)  # type: ignore[arg-type]
    return apply_event(state, event), [event]
