"""The seat, seed and rematch events of the engine on the wire: exactly docs/protocol.md's
`client_seed` and `rematch` kinds and detail keys (games/protocol/events.py), and a seat taken
sends nothing of its own (the `started` event that follows shows it)."""

from __future__ import annotations

import pytest

from games.protocol import event_detail
from nardy.match import (
    ClientSeedSet,
    RematchAccepted,
    RematchDeclined,
    RematchOffered,
    RematchTerms,
    Seated,
)


@pytest.mark.parametrize(
    ("event", "wire"),
    [
        (ClientSeedSet(seat=0, client_seed="my-own-seed_2026"),
         ("client_seed", {"seat": 0, "client_seed": "my-own-seed_2026"})),
        (RematchOffered(seat=1, client_seed="a", server_seed="S"), ("rematch", {"offered_by": 1})),
        (RematchDeclined(seat=0), ("rematch", {"declined_by": 0})),
        (RematchAccepted(seat=1, terms=RematchTerms(1, ("a", "b"), "S"), match_id=43),
         ("rematch", {"match_id": 43})),
    ],
)  # fmt: skip
def test_the_wire_form_is_the_protocols(event, wire) -> None:
    assert event_detail(event) == wire


def test_the_offer_keeps_the_seeds_off_the_wire() -> None:
    """The rematch's server seed is secret until that match ends; only its hash is shown (in
    `state.match.rematch`), never in an event's detail."""
    kind, detail = event_detail(RematchOffered(seat=0, client_seed="c", server_seed="S" * 64))  # type: ignore[misc]
    assert "S" * 64 not in repr(detail) and kind == "rematch"


def test_a_seat_taken_sends_no_event_of_its_own() -> None:
    assert event_detail(Seated(player=5, client_seed="x")) is None
