"""The events of a match's seats and seeds: the opponent sat down, the creator's client seed, the
rematch offered, declined or accepted. Like every event they are folded by ``apply_event``
(events.py); their wire form is games/protocol's (docs/protocol.md, `client_seed`, `rematch`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .state import MatchState, Rematch, RematchTerms, Seat, with_seat


@dataclass(frozen=True)
class Seated:
    """A player took seat 1 of the open challenge, with their client seed (``begin`` follows)."""

    player: int
    client_seed: str


@dataclass(frozen=True)
class ClientSeedSet:
    """The creator replaced their client seed while the challenge was open."""

    seat: Seat
    client_seed: str


@dataclass(frozen=True)
class RematchOffered:
    seat: Seat
    client_seed: str  # the offerer's, for the rematch's dice
    server_seed: str  # the rematch's, drawn with the first offer and kept by later ones


@dataclass(frozen=True)
class RematchDeclined:
    """The opponent declined the offer, or the offerer withdrew it."""

    seat: Seat


@dataclass(frozen=True)
class RematchAccepted:
    seat: Seat
    terms: RematchTerms
    match_id: int  # the new match, started by ``begin`` from its own state


def apply_seated(state: MatchState, event: Seated) -> MatchState:
    return dataclasses.replace(
        state,
        players=with_seat(state.players, 1, event.player),
        client_seeds=with_seat(state.client_seeds, 1, event.client_seed),
    )


def apply_client_seed_set(state: MatchState, event: ClientSeedSet) -> MatchState:
    seeds = with_seat(state.client_seeds, event.seat, event.client_seed)
    return dataclasses.replace(state, client_seeds=seeds)


def apply_rematch_offered(state: MatchState, event: RematchOffered) -> MatchState:
    offer = Rematch(
        offered_by=event.seat, client_seed=event.client_seed, server_seed=event.server_seed
    )
    return dataclasses.replace(state, rematch=offer)


def apply_rematch_declined(state: MatchState, event: RematchDeclined) -> MatchState:
    return dataclasses.replace(state, rematch=Rematch(declined=True))


def apply_rematch_accepted(state: MatchState, event: RematchAccepted) -> MatchState:
    return dataclasses.replace(state, rematch=Rematch(match_id=event.match_id))


SEAT_APPLIERS = {
    Seated: apply_seated,
    ClientSeedSet: apply_client_seed_set,
    RematchOffered: apply_rematch_offered,
    RematchDeclined: apply_rematch_declined,
    RematchAccepted: apply_rematch_accepted,
}
