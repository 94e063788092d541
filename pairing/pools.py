"""The quick-pairing pools: one per rule set × match length × time per turn × rated or casual.

A pool is named by a short key ("traditional.1.60.rated") on the wire and in Redis; its parts are
the same vocabulary as a challenge's (games/models/choices.py, derived from nardy/ruleset.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.models import TURN_SECONDS_CHOICES
from nardy.ruleset import MATCH_LENGTHS, RULE_SET_NAMES

RATED = "rated"
CASUAL = "casual"
MAX_KEY_LENGTH = 40


class PoolKeyError(ValueError):
    pass


@dataclass(frozen=True)
class Pool:
    rule_set_name: str
    length: int
    turn_seconds: int
    rated: bool

    def __post_init__(self) -> None:
        if self.rule_set_name not in RULE_SET_NAMES:
            raise PoolKeyError(f"unknown rule set {self.rule_set_name!r}")
        if self.length not in MATCH_LENGTHS:
            raise PoolKeyError(f"a match is played to {MATCH_LENGTHS}, not {self.length!r}")
        if self.turn_seconds not in TURN_SECONDS_CHOICES:
            raise PoolKeyError(f"time per turn is one of {TURN_SECONDS_CHOICES}")

    @property
    def key(self) -> str:
        kind = RATED if self.rated else CASUAL
        return f"{self.rule_set_name}.{self.length}.{self.turn_seconds}.{kind}"

    @classmethod
    def from_key(cls, key: object) -> Pool:
        if not isinstance(key, str) or len(key) > MAX_KEY_LENGTH:
            raise PoolKeyError("a pool is named by a short string")
        parts = key.split(".")
        if len(parts) != 4 or parts[3] not in (RATED, CASUAL):
            raise PoolKeyError("a pool is named rule_set.length.seconds.rated|casual")
        if not (
            parts[1].isascii() and parts[1].isdigit() and parts[2].isascii() and parts[2].isdigit()
        ):
            raise PoolKeyError("length and seconds are whole numbers")
        pool = cls(parts[0], int(parts[1]), int(parts[2]), parts[3] == RATED)
        if pool.key != key:  # one spelling per pool ("01" is not "1")
            raise PoolKeyError("a pool is named by its own key")
        return pool

    @classmethod
    def of(cls, entry) -> Pool:
        """The pool of a PoolEntry row (or anything with the four fields)."""
        return cls(entry.rule_set_name, entry.length, entry.turn_seconds, entry.rated)


# The one-click tiles of the Play page: the common pools (docs/rules.md, Platform rules: the
# Romanian page's 30 s to 2 min per move; Traditional is usually one point, Tournament five).
TILES: tuple[Pool, ...] = (
    Pool("traditional", 1, 30, True),
    Pool("traditional", 1, 60, True),
    Pool("traditional", 3, 60, True),
    Pool("traditional", 1, 60, False),
    Pool("tournament", 5, 60, True),
    Pool("tournament", 5, 90, True),
    Pool("tournament", 3, 30, True),
    Pool("tournament", 5, 120, False),
)
