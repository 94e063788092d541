"""Matches, their games and the append-only move log. PostgreSQL is the single source of truth.

Every command locks the Match row (`select_for_update`) before touching the match or its current
game: that row lock is our one-actor-per-game (lila's RoundAsyncActor). `Match.version` is bumped
by every change and carried by every socket event (docs/protocol.md).

The tables live in four modules: `choices` (the vocabulary: rule options as columns, statuses,
reasons, seeds' shapes), `domains` (the columns' one-column rules as PostgreSQL types), `match`
(Match), `game` (Game and its Turn log) and `reminders` (correspondence deadlines reminded);
every name is imported from here.
"""

from games.models.choices import (
    CLIENT_SEED_REGEX,
    LIVE_TIME_CONTROL_CHOICES,
    LIVE_TIME_CONTROLS,
    RESERVE_SECONDS_CHOICES,
    RULE_COLUMNS,
    SEED_REVEALED_STATUSES,
    SERVER_SEED_REGEX,
    SIDES,
    TURN_SECONDS_CHOICES,
    BlockRelease,
    CubeRaise,
    DiceSource,
    EndReason,
    GameResult,
    GameStarter,
    HeadException,
    MatchStatus,
    Opening,
    Phase,
    RuleSetName,
    SingleDie,
    SixBlock,
    TimeControl,
    new_invite_token,
    rule_columns,
)
from games.models.game import Game, Turn
from games.models.match import Match
from games.models.reminders import DeadlineReminder

__all__ = [
    "BlockRelease",
    "CLIENT_SEED_REGEX",
    "CubeRaise",
    "DeadlineReminder",
    "DiceSource",
    "EndReason",
    "Game",
    "LIVE_TIME_CONTROLS",
    "LIVE_TIME_CONTROL_CHOICES",
    "GameResult",
    "GameStarter",
    "HeadException",
    "Match",
    "MatchStatus",
    "Opening",
    "Phase",
    "RESERVE_SECONDS_CHOICES",
    "RULE_COLUMNS",
    "RuleSetName",
    "SEED_REVEALED_STATUSES",
    "SERVER_SEED_REGEX",
    "SIDES",
    "SingleDie",
    "SixBlock",
    "TURN_SECONDS_CHOICES",
    "TimeControl",
    "Turn",
    "new_invite_token",
    "rule_columns",
]
