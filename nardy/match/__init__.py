"""A match as an immutable state machine (docs/rules.md, "Who starts, colours, games and matches"
and "Platform rules").

``MatchState`` is a frozen value. Every operation a match has (``begin``, ``roll``, ``step``,
``undo``, ``timeout``, ``resign``, ``claim_abandoned``, ``ban``, ``abort``, ``cancel``, the
cube's ``double``, ``take``, ``drop``, and the seats' ``accept``, ``decline_challenge``,
``set_client_seed``, ``offer_rematch``, ``decline_rematch``, ``accept_rematch``) takes the
state, the dice it may need and "now", and returns ``(new state, events)``. Nothing here reads a
clock, rolls a die or draws a seed: seeds and the time a player has been away come in as data,
dice from a function of (game number, roll number), the engine numbering each game's rolls from 1
(the opening roll may need several after ties, an automatic roll one more, a dropped double the
next game's opening roll), and every roll drawn is recorded in an event with its number
(games/fairness recomputes them).

Each operation only *decides* which events happen; ``apply_event`` is the one function that
changes a state, so replaying a match's events from its first state gives its final state
(tests/nardy/test_match.py checks this over random matches). Events are the engine's own
values; their wire form is games/protocol's business.
"""

from .doubling import double, drop, take
from .endings import abort, abort_before_start, ban, cancel, claim_abandoned, resign
from .events import (
    Cancelled,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    Event,
    GameOver,
    MatchOver,
    Rolled,
    Started,
    Stepped,
    TimedOut,
    TurnEnded,
    Undone,
    apply_event,
    replay,
)
from .operations import (
    awaiting_confirm,
    begin,
    confirm,
    forced_turn,
    require_mover,
    roll,
    step,
    timeout,
    undo,
)
from .seat_events import ClientSeedSet, RematchAccepted, RematchDeclined, RematchOffered, Seated
from .seats import (
    accept,
    accept_rematch,
    decline_challenge,
    decline_rematch,
    offer_rematch,
    rating_in_range,
    rematch_terms,
    set_client_seed,
)
from .state import (
    MAX_AUTOMATIC_ROLLS,
    TIMEOUTS_TO_LOSE,
    Candidate,
    Challenge,
    DiceSource,
    EndReason,
    GameState,
    MatchRuleError,
    MatchState,
    OpeningRoll,
    Phase,
    Rematch,
    RematchTerms,
    Seat,
    Status,
)

__all__ = [
    "Candidate",
    "Challenge",
    "ClientSeedSet",
    "Rematch",
    "RematchAccepted",
    "RematchDeclined",
    "RematchOffered",
    "RematchTerms",
    "Seated",
    "accept",
    "accept_rematch",
    "decline_challenge",
    "decline_rematch",
    "offer_rematch",
    "rating_in_range",
    "rematch_terms",
    "set_client_seed",
    "MAX_AUTOMATIC_ROLLS",
    "TIMEOUTS_TO_LOSE",
    "Cancelled",
    "CubeDropped",
    "CubeOffered",
    "CubeTaken",
    "DiceSource",
    "EndReason",
    "Event",
    "GameOver",
    "GameState",
    "MatchOver",
    "MatchRuleError",
    "MatchState",
    "OpeningRoll",
    "Phase",
    "Rolled",
    "Seat",
    "Started",
    "Status",
    "Stepped",
    "TimedOut",
    "TurnEnded",
    "Undone",
    "abort",
    "abort_before_start",
    "apply_event",
    "ban",
    "awaiting_confirm",
    "begin",
    "cancel",
    "claim_abandoned",
    "confirm",
    "double",
    "drop",
    "forced_turn",
    "replay",
    "require_mover",
    "resign",
    "roll",
    "step",
    "take",
    "timeout",
    "undo",
]
