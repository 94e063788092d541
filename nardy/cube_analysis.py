"""Post-match analysis of cube decisions (docs/rules.md, "The doubling cube"): before each roll
where the mover could double, the equity of doubling and of not doubling; after each double,
the equity of taking and of dropping; the loss of the choice made, marked with the thresholds of
checker play (analysis.py). Pure: the boards, the log's doubles and the score are passed in.

Each choice's equity is the cubeful match winning chance of met.py (Janowski's interpolation
over the Long Nardy match equity table) at the match score, from the evaluation's cubeless
chance that the mover wins the game (a cube game knows no mars: its chance of winning is all
that counts). A difference of match winning chances is turned into equity in units of the
cube's value before the decision, as GNU Backgammon's ``mwc2eq`` does: twice the difference
over the spread between winning and losing the cube's value at this score. So a loss is on the
scale of a checker play loss and the same marks apply.

Which decisions count into the performance rating follows GNU Backgammon (analysis.c
``updateStatcontext`` and ``isCloseCubedecision``): every take or drop, every double offered,
and a decision not to double when it was an error or doubling was within a blunder's loss
(0.16) of the best; a position where doubling is far off is no decision.

The cube's efficiency (the live share of Janowski's interpolation) is GNU Backgammon's for a
race, ``0.55 + 0.00125 x`` the pips of the side on roll, kept between 0.6 and 0.7 (eval.c
``EvalEfficiency``): Long Nardy has no hitting, and its rolls (the same dice, doubles played four
times) cover the same pips a turn as backgammon's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .analysis import BLUNDER, THRESHOLDS, mark_of
from .board import Board, Side
from .cube import can_raise, raised_value
from .met import ME, OPPONENT, CubeState, Lookup, cubeful_equity, ends, match_lookup
from .ruleset import RuleSet

DOUBLE: Final = "double"
NO_DOUBLE: Final = "no_double"
TAKE: Final = "take"
DROP: Final = "drop"
CLOSE_CUBE = dict(THRESHOLDS)[BLUNDER]


def efficiency(pips: int) -> float:
    """The cube's efficiency for a side on roll with ``pips`` to go (GNU Backgammon's race)."""
    return min(max(0.55 + 0.00125 * pips, 0.6), 0.7)


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """One cube decision of ``seat``: ``kind`` "double" (the mover's: double or not) or "take"
    (the answer to a double); each choice's equity for the one deciding, the choice ``played``
    and the ``best``; ``counted`` whether it enters the performance rating."""

    kind: str
    seat: int
    cube: int
    equities: dict[str, float]
    played: str
    best: str
    counted: bool

    @property
    def loss(self) -> float:
        return max(self.equities[self.best] - self.equities[self.played], 0.0)

    @property
    def mark(self) -> str | None:
        return mark_of(self.loss)


@dataclass(frozen=True, slots=True)
class CubeMoment:
    """A position before a roll of the game: the board, the side and seat on roll, its pips
    (for the cube's efficiency) and the cube's value a double taken before this roll raised it
    to (0: none)."""

    board: Board
    side: Side
    seat: int
    pips: int
    doubled_to: int


def decide(
    chance: float, state: CubeState, lookup: Lookup, rules: RuleSet, pips: int, *,
    seat: int, doubled: bool, dropped: bool,
) -> list[CubeDecision]:  # fmt: skip
    """The mover's double decision at ``state`` (its view) with its game-winning ``chance``,
    and, when it ``doubled``, the opponent's answer (``dropped`` or taken)."""
    if not isinstance(chance, float | int) or not 0.0 <= chance <= 1.0:
        raise ValueError(f"the chance of winning must be from 0 to 1, got {chance!r}")
    step = lambda value: raised_value(value, rules)  # noqa: E731
    cube_eff = efficiency(pips)
    win, lose = ends(lookup, state.away, state.other, state.value)
    scale = 2.0 / (win - lose)
    raised = CubeState(state.away, state.other, step(state.value), OPPONENT)
    no_double = cubeful_equity(lookup, chance, state, step, cube_eff)
    take = cubeful_equity(lookup, chance, raised, step, cube_eff)
    mover = {
        NO_DOUBLE: round((no_double - lose) * scale - 1.0, 4),
        DOUBLE: round((min(take, win) - lose) * scale - 1.0, 4),
    }
    best = DOUBLE if mover[DOUBLE] > mover[NO_DOUBLE] else NO_DOUBLE
    played = DOUBLE if doubled else NO_DOUBLE
    close = mover[best] - mover[DOUBLE] < CLOSE_CUBE
    decisions = [
        CubeDecision(DOUBLE, seat, state.value, mover, played, best,
                     counted=doubled or close or best != played),
    ]  # fmt: skip
    if doubled:
        # The taker's equity: the negation of the doubler's, in the same units.
        answer = {
            TAKE: round(-((take - lose) * scale - 1.0), 4),
            DROP: round(-((win - lose) * scale - 1.0), 4),
        }
        decisions.append(
            CubeDecision(TAKE, 1 - seat, state.value, answer, DROP if dropped else TAKE,
                         TAKE if answer[TAKE] >= answer[DROP] else DROP, counted=True)
        )  # fmt: skip
    return decisions


def game_cube_decisions(
    moments: list[CubeMoment], chances: list[float], rules: RuleSet, *,
    score: tuple[int, int], crawford_game: bool, past_crawford: bool,
    dropped: CubeMoment | None = None, dropped_chance: float = 0.5,
) -> list[tuple[int, CubeDecision]]:  # fmt: skip
    """Every cube decision of one game, each with the index of the moment it came before (the
    index ``len(moments)`` for the double ``dropped`` that ended the game). ``score`` is each
    seat's points before the game; ``chances`` each moment's chance that its side on roll
    wins the game. A moment whose mover could not double (the cube the opponent's, at its
    highest, or the Crawford game: cube.may_double) holds no decision."""
    if not rules.doubling_cube or crawford_game:
        return []
    lookup = match_lookup(rules, past_crawford=past_crawford)
    value, owner = 1, None
    found: list[tuple[int, CubeDecision]] = []
    entries = list(zip(moments, chances, strict=True))
    if dropped is not None:
        entries.append((dropped, dropped_chance))
    for index, (moment, chance) in enumerate(entries):
        is_drop = dropped is not None and index == len(moments)
        doubled = is_drop or moment.doubled_to > 0
        if owner in (None, moment.seat) and can_raise(value, rules):
            away = rules.match_length - score[moment.seat]
            other = rules.match_length - score[1 - moment.seat]
            state = CubeState(away, other, value, None if owner is None else ME)
            for decision in decide(chance, state, lookup, rules, moment.pips, seat=moment.seat,
                                   doubled=doubled, dropped=is_drop):  # fmt: skip
                found.append((index, decision))
        if moment.doubled_to:
            value, owner = moment.doubled_to, 1 - moment.seat
    return found
