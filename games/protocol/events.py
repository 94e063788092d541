"""Engine events on the wire: the `kind` and `detail` of an `event` message (docs/protocol.md,
`event`)."""

from __future__ import annotations

from typing import Any

from games.protocol.commands import (
    step_to_wire,
)
from nardy import match as engine

_EVENT_DETAILS: dict[type, tuple[str, Any]] = {
    engine.Started: (
        "started",
        lambda event: {"game": event.game, "crawford": event.crawford},
    ),
    engine.Rolled: (
        "rolled",
        lambda event: {"side": event.side, "dice": list(event.dice), "roll": event.roll},
    ),
    engine.Stepped: ("step", lambda event: {"side": event.side, "step": step_to_wire(event.step)}),
    engine.Undone: ("undo", lambda event: {"side": event.side, "step": step_to_wire(event.step)}),
    engine.TurnEnded: (
        "turn",
        lambda event: {
            "number": event.number,
            "side": event.side,
            "dice": list(event.dice),
            "roll": event.roll,
            "steps": [step_to_wire(step) for step in event.steps],
            "by_server": event.by_server,
            "passed": event.passed,
            "doubled_to": event.doubled_to,
        },
    ),  # fmt: skip
    engine.CubeOffered: (
        "cube_offer",
        lambda event: {
            "seat": event.seat,
            "side": event.side,
            "value": event.value,
            "by_server": event.by_server,
        },
    ),  # fmt: skip
    engine.CubeTaken: (
        "cube_take",
        lambda event: {"seat": event.seat, "side": event.side, "value": event.value},
    ),
    engine.CubeDropped: (
        "cube_drop",
        lambda event: {
            "seat": event.seat,
            "side": event.side,
            "value": event.value,
            "by_server": event.by_server,
        },
    ),  # fmt: skip
    engine.TimedOut: (
        "timeout",
        lambda event: {"seat": event.seat, "side": event.side, "timeouts": event.timeouts},
    ),
    engine.GameOver: (
        "game_over",
        lambda event: {
            "game": event.game,
            "winner": event.winner,
            "result": event.result,
            "points": event.points,
        },
    ),  # fmt: skip
    engine.MatchOver: (
        "match_over",
        lambda event: {
            "winner_seat": event.winner_seat,
            "reason": event.reason,
            "aborted_by": event.aborted_by,
        },
    ),
    engine.Cancelled: ("cancelled", lambda event: {}),
    engine.ClientSeedSet: (
        "client_seed",
        lambda event: {"seat": event.seat, "client_seed": event.client_seed},
    ),
    engine.RematchOffered: ("rematch", lambda event: {"offered_by": event.seat}),
    engine.RematchDeclined: ("rematch", lambda event: {"declined_by": event.seat}),
    engine.RematchAccepted: ("rematch", lambda event: {"match_id": event.match_id}),
}


def event_detail(event: engine.Event) -> tuple[str, dict[str, Any]] | None:
    """The wire `kind` and `detail` of an engine event (docs/protocol.md, `event`); None for the
    opponent sitting down, which the clients see as the `started` event that follows it in the
    same command (``engine.accept``, then ``engine.begin``)."""
    if isinstance(event, engine.Seated):
        return None
    kind, detail = _EVENT_DETAILS[type(event)]
    return kind, detail(event)
