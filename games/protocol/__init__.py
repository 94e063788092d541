"""The match socket's wire format (docs/protocol.md): command parsing and state serialisation.

The engine knows nothing of JSON; this module turns its values into the documented messages and
turns client frames into typed commands, refusing anything malformed with a `ProtocolError`.

Three modules: `commands` (frames in), `state` (snapshots out) and `events` (engine events out);
every name is imported from here.
"""

from games.protocol.commands import (
    MATCH_COMMANDS,
    WireStep,
    step_from_wire,
    step_to_wire,
    steps_from_json,
)
from games.protocol.events import (
    event_detail,
)
from games.protocol.state import (
    MoveState,
    Phase,
    PlayerState,
    clock_state,
    cube_state,
    fairness_state,
    game_state,
    match_section,
    match_settings,
    match_state,
    move_of_turn,
    opening_state,
    rules_state,
)

__all__ = [
    "MATCH_COMMANDS",
    "MoveState",
    "Phase",
    "PlayerState",
    "WireStep",
    "clock_state",
    "cube_state",
    "event_detail",
    "fairness_state",
    "game_state",
    "match_section",
    "match_settings",
    "match_state",
    "move_of_turn",
    "opening_state",
    "rules_state",
    "step_from_wire",
    "step_to_wire",
    "steps_from_json",
]
