"""Rule sets as data (docs/rules.md, Rule sets offered when creating a match)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal, get_args

# The one vocabulary of rule options (docs/rules.md): the model's choices and constraints, the form,
# the protocol and the page's strings are derived from these (tests/games/test_rule_vocabulary.py).
SixBlockMode = Literal["end_of_turn", "every_step"]
HeadException = Literal["classic", "generalised"]
OpeningMode = Literal["reroll", "play_roll"]
# The Ukrainian rules page's variants (docs/rules.md, A turn): which die is played when only one
# can be ("larger", docs/rules.md, A turn, item 3, or the mover's "choice"), and when a
# six-point block is allowed (an opposing checker "ahead" of it, docs/rules.md, A turn, item 5, or
# one that has reached its "home").
SingleDie = Literal["larger", "choice"]
BlockRelease = Literal["ahead", "home"]
# Who starts a game after the first: its "winner" (docs/rules.md) or a new "opening_roll" (Omerta).
GameStarter = Literal["winner", "opening_roll"]
# How the doubling cube ("dave") raises the stake (docs/rules.md, The doubling cube): 1-2-4-8 or
# 1-2-3-4.
CubeRaise = Literal["geometric", "arithmetic"]

SIX_BLOCK_MODES: tuple[str, ...] = get_args(SixBlockMode)
HEAD_EXCEPTIONS: tuple[str, ...] = get_args(HeadException)
OPENING_MODES: tuple[str, ...] = get_args(OpeningMode)
SINGLE_DIE_MODES: tuple[str, ...] = get_args(SingleDie)
BLOCK_RELEASES: tuple[str, ...] = get_args(BlockRelease)
GAME_STARTERS: tuple[str, ...] = get_args(GameStarter)
CUBE_RAISES: tuple[str, ...] = get_args(CubeRaise)
MATCH_LENGTHS: tuple[int, ...] = (1, 3, 5, 7)


@dataclass(frozen=True)
class RuleSet:
    """Every option docs/rules.md names. Validated on construction (ValueError on a bad value)."""

    six_block: SixBlockMode = "end_of_turn"
    head_exception: HeadException = "classic"
    opening: OpeningMode = "reroll"
    undo_allowed: bool = True
    match_length: int = 1
    single_die: SingleDie = "larger"
    block_release: BlockRelease = "ahead"
    game_starter: GameStarter = "winner"
    # The Ukrainian "dave" doubling cube, off by default (docs/rules.md); never in one-point
    # matches.
    doubling_cube: bool = False
    cube_raise: CubeRaise = "geometric"
    # No doubling in the game after a player first needs one point to win the match.
    crawford: bool = True

    def __post_init__(self) -> None:
        if self.six_block not in SIX_BLOCK_MODES:
            raise ValueError(f"six_block must be one of {SIX_BLOCK_MODES}, got {self.six_block!r}")
        if self.head_exception not in HEAD_EXCEPTIONS:
            raise ValueError(
                f"head_exception must be one of {HEAD_EXCEPTIONS}, got {self.head_exception!r}"
            )
        if self.opening not in OPENING_MODES:
            raise ValueError(f"opening must be one of {OPENING_MODES}, got {self.opening!r}")
        if type(self.undo_allowed) is not bool:
            raise ValueError(f"undo_allowed must be a bool, got {self.undo_allowed!r}")
        if type(self.match_length) is not int or self.match_length not in MATCH_LENGTHS:
            raise ValueError(
                f"match_length must be one of {MATCH_LENGTHS}, got {self.match_length!r}"
            )
        for name, values in _CHOICES.items():
            if getattr(self, name) not in values:
                raise ValueError(f"{name} must be one of {values}, got {getattr(self, name)!r}")
        for name in ("doubling_cube", "crawford"):
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")
        if self.doubling_cube and self.match_length == 1:
            raise ValueError("the doubling cube needs a match of more than one point")


_CHOICES: dict[str, tuple[str, ...]] = {
    "single_die": SINGLE_DIE_MODES,
    "block_release": BLOCK_RELEASES,
    "game_starter": GAME_STARTERS,
    "cube_raise": CUBE_RAISES,
}


TRADITIONAL = RuleSet(six_block="end_of_turn", undo_allowed=True, match_length=1)
TOURNAMENT = RuleSet(six_block="every_step", undo_allowed=False, match_length=5)
PRESETS: dict[str, RuleSet] = {"traditional": TRADITIONAL, "tournament": TOURNAMENT}
RULE_SET_NAMES: tuple[str, ...] = tuple(PRESETS)

# The options a match is played with, each with its allowed values, in the order the protocol
# shows them (docs/protocol.md `rules`); the length is the match's own field.
OPTION_VALUES: dict[str, tuple[object, ...]] = {
    "six_block": SIX_BLOCK_MODES,
    "head_exception": HEAD_EXCEPTIONS,
    "opening": OPENING_MODES,
    "undo_allowed": (True, False),
    "single_die": SINGLE_DIE_MODES,
    "block_release": BLOCK_RELEASES,
    "game_starter": GAME_STARTERS,
    "doubling_cube": (False, True),
    "cube_raise": CUBE_RAISES,
    "crawford": (True, False),
}


def rule_set(name: str = "traditional", **overrides: object) -> RuleSet:
    """Build a rule set from a preset name plus validated overrides.

    >>> rule_set("tournament", match_length=7).six_block
    'every_step'
    """
    try:
        preset = PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown rule set {name!r}; choose one of {sorted(PRESETS)}") from None
    known = {field.name for field in dataclasses.fields(RuleSet)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"unknown rule-set option(s) {unknown}; known: {sorted(known)}")
    return dataclasses.replace(preset, **overrides)  # type: ignore[arg-type]


# --- Time controls: how a timed match counts its time, nardy/clock.py --------------------
# "turn": the platform's clock (docs/rules.md, Platform rules): 30-120 s per turn plus an optional
#   reserve bank; a turn that runs out is played by the server and counted as a timeout.
# "nardeon": the Serbian page's clock: 12 s free per turn, then a 2-minute reserve for the whole
#   match, at most 60 s on any one turn; when the time runs out the match is lost (reason `time`).
# "omerta": the Russian page's clock: 90 s, started again after each step; at expiry the server
#   plays the rest of the turn (counted as a timeout, as on the platform's clock).
# "correspondence": the site's slow clock (docs/rules.md, Platform rules, Correspondence): a
#   number of days per turn; at expiry the server plays the turn, and the third missed turn in a
#   row loses the match.
TimeControlKind = Literal["turn", "nardeon", "omerta", "correspondence"]
TIME_CONTROLS: tuple[str, ...] = get_args(TimeControlKind)
NARDEON_FREE_SECONDS = 12
NARDEON_RESERVE_SECONDS = 120
NARDEON_TURN_LIMIT_SECONDS = 60
OMERTA_STEP_SECONDS = 90
CORRESPONDENCE_DAYS: tuple[int, ...] = (1, 2, 3, 5, 7)
# The rule pages' clocks go by their sites' names, the same in every language.
SEED_CLOCK_NAMES: dict[str, str] = {"nardeon": "NARDEON", "omerta": "Omerta"}
