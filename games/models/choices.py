"""The match tables' vocabulary: the engine's rule options as columns and choices, statuses, end
reasons, seeds' shapes and the settings' allowed values (games/models/__init__.py)."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import BotLevel
from nardy import RuleSet
from nardy.bots import LEVELS as BOT_LEVELS
from nardy.cube import CUBE_RESULT, DROP_RESULT
from nardy.ruleset import (
    BLOCK_RELEASES,
    CUBE_RAISES,
    GAME_STARTERS,
    HEAD_EXCEPTIONS,
    OPENING_MODES,
    RULE_SET_NAMES,
    SINGLE_DIE_MODES,
    SIX_BLOCK_MODES,
    TIME_CONTROLS,
)

if tuple(BotLevel.values) != BOT_LEVELS:  # the accounts' column holds the engine's levels, in order
    raise ValueError(f"bot levels {BotLevel.values} do not match the engine's {BOT_LEVELS}")

# The Match columns of each engine rule option (RuleSet field -> column): `Match.rules` reads
# them, `rule_columns` writes them.
RULE_COLUMNS = {
    "six_block": "six_block",
    "head_exception": "head_exception",
    "opening": "opening",
    "undo_allowed": "undo_allowed",
    "match_length": "length",
    "single_die": "single_die",
    "block_release": "block_release",
    "game_starter": "game_starter",
    "doubling_cube": "doubling_cube",
    "cube_raise": "cube_raise",
    "crawford": "crawford",
}


def rule_columns(rules: RuleSet) -> dict[str, object]:
    """A Match row's rule columns for an engine rule set."""
    return {column: getattr(rules, option) for option, column in RULE_COLUMNS.items()}


def _engine_choices(name: str, values: tuple[str, ...], labels: dict[str, str]):
    """TextChoices whose values are the engine's vocabulary (nardy/ruleset.py); the labels
    are the site's words. A value without a label, or a label without a value, fails at import."""
    if set(labels) != set(values):
        raise ValueError(f"{name}: labels {sorted(labels)} do not match the engine's {values}")
    return models.TextChoices(name, [(value.upper(), (value, labels[value])) for value in values])


RuleSetName = _engine_choices(
    "RuleSetName",
    RULE_SET_NAMES,
    {"traditional": _("Traditional"), "tournament": _("Tournament")},
)
SixBlock = _engine_choices(
    "SixBlock",
    SIX_BLOCK_MODES,
    {
        "end_of_turn": _("checked at the end of the turn"),
        "every_step": _("checked at every step"),
    },
)
HeadException = _engine_choices(
    "HeadException",
    HEAD_EXCEPTIONS,
    {
        "classic": _("classic (6-6, 4-4, 3-3 on the first turn)"),
        "generalised": _("generalised (also when one head checker is blocked)"),
    },
)
Opening = _engine_choices(
    "Opening",
    OPENING_MODES,
    {
        "reroll": _("the starter rolls again"),
        "play_roll": _("the starter plays the opening roll"),
    },
)

SingleDie = _engine_choices(
    "SingleDie",
    SINGLE_DIE_MODES,
    {
        "larger": _("the larger die when only one can be played"),
        "choice": _("the player chooses the die when only one can be played"),
    },
)
BlockRelease = _engine_choices(
    "BlockRelease",
    BLOCK_RELEASES,
    {
        "ahead": _("once an opposing checker is ahead of it"),
        "home": _("once an opposing checker has reached its home"),
    },
)
GameStarter = _engine_choices(
    "GameStarter",
    GAME_STARTERS,
    {
        "winner": _("the winner of the previous game"),
        "opening_roll": _("a new opening roll before every game"),
    },
)
CubeRaise = _engine_choices(
    "CubeRaise",
    CUBE_RAISES,
    {
        "geometric": _("geometric (1, 2, 4, 8 …)"),
        "arithmetic": _("arithmetic (1, 2, 3, 4 …)"),
    },
)


TimeControl = _engine_choices(
    "TimeControl",
    TIME_CONTROLS,
    {
        "turn": _("seconds per turn, with an optional reserve"),
        "nardeon": _("NARDEON: 12 s per turn free, then a 2-minute reserve, at most 60 s a turn"),
        "omerta": _("Omerta: 90 s, started again after each step"),
        "correspondence": _("correspondence: days per move"),
    },
)


# The clocks played in one sitting: tournaments and pools offer these, never correspondence.
LIVE_TIME_CONTROLS: tuple[str, ...] = tuple(
    value for value in TimeControl.values if value != TimeControl.CORRESPONDENCE
)
LIVE_TIME_CONTROL_CHOICES = [
    (value, label) for value, label in TimeControl.choices if value in LIVE_TIME_CONTROLS
]


class MatchStatus(models.TextChoices):
    OPEN = "open", _("waiting for an opponent")
    ACTIVE = "active", _("in play")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")
    ABORTED = "aborted", _("aborted")


class EndReason(models.TextChoices):
    FINISHED = "finished", _("played to the end")
    RESIGNED = "resigned", _("resigned")
    LEFT = "left", _("left the table")
    TIMEOUTS = "timeouts", _("three timeouts")
    ABORTED = "aborted", _("aborted")
    # A moderator banned the loser during the match (rated as the match was).
    BANNED = "banned", _("banned by a moderator")
    TIME = "time", _("ran out of time")
    ABANDONED = "abandoned", _("abandoned the match")


class GameResult(models.TextChoices):
    OIN = "oin", _("oin (1 point)")
    MARS = "mars", _("mars (2 points)")
    CUBE = CUBE_RESULT, _("won at the cube's value")
    DROP = DROP_RESULT, _("double declined")


class Phase(models.TextChoices):
    ROLL = "roll", _("to roll")
    MOVE = "move", _("to move")
    OVER = "over", _("over")


class DiceSource(models.TextChoices):
    """Where a match's dice came from: only "fair" ones can be verified (games/fairness)."""

    FAIR = "fair", _("provably fair")
    FIXED = "fixed", _("fixed by a test")
    LEGACY = "legacy", _("rolled before provably fair dice")


# A revealed or secret server seed, and a client seed (games/fairness/dice.py).
SERVER_SEED_REGEX = r"^[0-9a-f]{64}$"
CLIENT_SEED_REGEX = r"^[A-Za-z0-9_-]{0,64}$"
# The server seed is revealed once a match can roll no more dice.
SEED_REVEALED_STATUSES = ("finished", "aborted", "cancelled")

TURN_SECONDS_CHOICES = (30, 60, 90, 120)
RESERVE_SECONDS_CHOICES = (0, 60, 120, 300)
SIDES = ("w", "b")


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)
