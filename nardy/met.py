"""The Long Nardy match equity table and cubeful match equity (docs/rules.md, "The doubling
cube"; the method in docs/glossary.md, "Match equity table").

A table entry ``starter(rules, crawford_done)[a][b]`` is the chance of winning the match of the
player who starts the next game needing ``a`` points against an opponent needing ``b``. Long
Nardy's next game is started by the last game's winner (docs/rules.md, "Who starts, colours,
games and matches"), so a game's two ends are table entries: winning ``v`` points at
``(a, b)`` leads to ``starter[a - v][b]``, losing them to ``1 - starter[b - v][a]``.

The table is built by ``build_tables`` from two rates measured by self-play (bench/met.py):
the starter's chance of winning a game and the share of wins with mars. A cube game knows no
oin and no mars (docs/rules.md, "The doubling cube"), so the cube tables use the starter's rate
only; the table for matches without the cube counts a mars as 2 points (no triple win).

Cube play follows the continuous model of Keeler and Spencer ("Optimal doubling in
backgammon", Operations Research 23(6), 1975) as Zadeh applied it to matches ("On doubling in
tournament backgammon", Management Science 23(9), 1977): without gammons (here: without mars)
the game's winning chance moves continuously, a player doubles at the opponent's take point,
and the take points follow by a recursion over the cube's levels, each player's cash point
being one minus the other's take point of the redouble (the live-cube cash points of GNU
Backgammon's matchequity.c, ``GetPoints``). In a position, the cubeful equity is Janowski's
interpolation between the dead cube (the cubeless match equity) and the live cube, weighted by
the cube's efficiency (Janowski, "Take-points in money games", 1993; GNU Backgammon eval.c
``Cl2CfMatch``).

Pure: the tables are read from nardy/met.json (written by bench/met.py); no clock, no dice.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .cube import MAX_CUBE_VALUE, raised_value
from .ruleset import MATCH_LENGTHS, RuleSet

MAX_AWAY = max(MATCH_LENGTHS)
ME, OPPONENT = "me", "opponent"
Table = tuple[tuple[float, ...], ...]  # [a][b] for 1 <= a, b <= MAX_AWAY (index 0 unused)
# The starter's match winning chance at a score reached at the end of a game.
Lookup = Callable[[int, int], float]
Step = Callable[[int], int]  # the cube's next value (cube.raised_value)


def _raise(geometric: bool) -> Step:
    return (lambda value: value * 2) if geometric else (lambda value: value + 1)


def ends(lookup: Lookup, away: int, other: int, value: int) -> tuple[float, float]:
    """My match winning chance after winning and after losing ``value`` points at ``(away,
    other)`` (the winner starts the next game)."""
    win = 1.0 if away <= value else lookup(away - value, other)
    lose = 0.0 if other <= value else 1.0 - lookup(other - value, away)
    return win, lose


def take_point(lookup: Lookup, away: int, other: int, value: int, step: Step) -> float:
    """The smallest winning chance at which I take a double from ``value`` at ``(away,
    other)``: where my live equity owning the raised cube equals dropping (Keeler and Spencer)."""
    raised = step(value)
    _, drop = ends(lookup, away, other, value)
    win, lose = ends(lookup, away, other, raised)
    if win <= lose:
        return 0.0
    cash = _cash_point(lookup, away, other, raised, step)
    return min(max(cash * (drop - lose) / (win - lose), 0.0), 1.0)


def _cash_point(lookup: Lookup, away: int, other: int, value: int, step: Step) -> float:
    """Where I, owning the cube at ``value``, double the opponent out: one less their take point
    of my redouble, or 1 when a redouble is of no use to me (it cannot be raised, or winning at
    ``value`` already wins me the match)."""
    if step(value) > MAX_CUBE_VALUE or value >= away:
        return 1.0
    return 1.0 - take_point(lookup, other, away, value, step)


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube at a decision, from the player on roll's side: the points each needs, the
    cube's value and owner (``ME``, ``OPPONENT`` or None: in the middle), and whether the cube
    may be used in this game at all (not in the Crawford game)."""

    away: int
    other: int
    value: int
    owner: str | None
    alive: bool = True

    def __post_init__(self) -> None:
        for name in ("away", "other"):
            needed = getattr(self, name)
            if type(needed) is not int or not 1 <= needed <= MAX_AWAY:
                raise ValueError(f"{name} must be an integer from 1 to {MAX_AWAY}, got {needed!r}")
        if type(self.value) is not int or not 1 <= self.value <= MAX_CUBE_VALUE:
            raise ValueError(f"the cube's value must be 1 to {MAX_CUBE_VALUE}, got {self.value!r}")
        if self.owner not in (None, ME, OPPONENT):
            raise ValueError(f"the cube's owner must be None, {ME!r} or {OPPONENT!r}")


def live_equity(lookup: Lookup, chance: float, state: CubeState, step: Step) -> float:
    """My match winning chance with a fully efficient cube: the opponent doubles me out below my
    take point, I double them out above my cash point, and in between the equity is linear in
    the winning chance (the continuous model)."""
    win, lose = ends(lookup, state.away, state.other, state.value)
    if not state.alive or step(state.value) > MAX_CUBE_VALUE:
        return lose + chance * (win - lose)
    mine = state.owner in (None, ME) and state.value < state.away
    theirs = state.owner in (None, OPPONENT) and state.value < state.other
    cash = 1.0 - take_point(lookup, state.other, state.away, state.value, step) if mine else 1.0
    take = take_point(lookup, state.away, state.other, state.value, step) if theirs else 0.0
    if chance >= cash:
        return win
    if chance <= take or cash <= take:
        return lose if chance <= take else win
    return lose + (chance - take) / (cash - take) * (win - lose)


def cubeful_equity(
    lookup: Lookup, chance: float, state: CubeState, step: Step, efficiency: float
) -> float:
    """Janowski's interpolation: ``efficiency`` x live cube + (1 - ``efficiency``) x dead cube."""
    win, lose = ends(lookup, state.away, state.other, state.value)
    dead = lose + chance * (win - lose)
    return efficiency * live_equity(lookup, chance, state, step) + (1.0 - efficiency) * dead


def build_tables(starter_wins: float, mars_share: float) -> dict[str, Table]:
    """The tables from the measured rates: ``starter_wins``, the chance that the player who
    starts a game wins it, and ``mars_share``, the share of wins that are mars (for matches
    without the cube). Keys: ``cube-<raise>-<crawford>`` and ``no-cube``; a cube table's entry
    is the game's centred-cube live equity at the starter's chance."""
    tables: dict[str, Table] = {"no-cube": _no_cube_table(starter_wins, mars_share)}
    for geometric in (True, False):
        step = _raise(geometric)
        name = "geometric" if geometric else "arithmetic"
        post = _cube_table(starter_wins, step, None)  # the cube alive at every score
        tables[f"cube-{name}-no-crawford"] = post
        tables[f"cube-{name}-crawford"] = _cube_table(starter_wins, step, post)
    return tables


def _filled(entry: Callable[[Lookup, int, int], float]) -> Table:
    """A table filled by the points still needed in all, fewest first: a game's ends need
    fewer, so ``entry(lookup, away, other)`` only looks up entries already filled."""
    table = [[0.0] * (MAX_AWAY + 1) for _ in range(MAX_AWAY + 1)]

    def lookup(away: int, other: int) -> float:
        return table[away][other]

    for total in range(2, 2 * MAX_AWAY + 1):
        for away in range(max(1, total - MAX_AWAY), min(MAX_AWAY, total - 1) + 1):
            table[away][total - away] = entry(lookup, away, total - away)
    return tuple(tuple(row) for row in table)


def _no_cube_table(starter_wins: float, mars_share: float) -> Table:
    def entry(lookup: Lookup, away: int, other: int) -> float:
        equity = 0.0
        for chance, lost in ((starter_wins, False), (1.0 - starter_wins, True)):
            for points, share in ((1, 1.0 - mars_share), (2, mars_share)):
                win, lose = ends(lookup, away, other, points)
                equity += chance * share * (lose if lost else win)
        return equity

    return _filled(entry)


def _cube_table(starter_wins: float, step: Step, post: Table | None) -> Table:
    """With ``post`` (the post-Crawford table, the cube alive everywhere), the Crawford rule: a
    player at 1-away who starts has just got there, so the game is the Crawford game, played
    without the cube; the other player starting while the leader is 1-away has won a game
    since, so the Crawford game is behind them and the entry is the post-Crawford one."""

    def entry(lookup: Lookup, away: int, other: int) -> float:
        if post is not None and away > 1 and other == 1:
            return post[away][other]
        crawford_game = post is not None and away == 1 and other > 1
        state = CubeState(away, other, 1, None, alive=not crawford_game)
        return live_equity(lookup, starter_wins, state, step)

    return _filled(entry)


@lru_cache(maxsize=1)
def load() -> dict:
    """nardy/met.json: the tables, the rates they were built from and their provenance."""
    text = resources.files("nardy").joinpath("met.json").read_text(encoding="utf-8")
    data = json.loads(text)
    tables = data["tables"]
    data["tables"] = {name: tuple(tuple(row) for row in rows) for name, rows in tables.items()}
    return data


def table_name(rules: RuleSet) -> str:
    if not rules.doubling_cube:
        return "no-cube"
    crawford = "crawford" if rules.crawford else "no-crawford"
    return f"cube-{rules.cube_raise}-{crawford}"


def match_lookup(rules: RuleSet, *, past_crawford: bool) -> Lookup:
    """The end-of-game lookup for a game of a match played under ``rules``: once the Crawford
    game is over (``past_crawford``), a 1-away score is played with the cube again."""
    tables = load()["tables"]
    name = table_name(rules)
    if rules.doubling_cube and rules.crawford and past_crawford:
        name = f"cube-{rules.cube_raise}-no-crawford"
    chosen = tables[name]
    return lambda away, other: chosen[away][other]


def step_of(rules: RuleSet) -> Step:
    return lambda value: raised_value(value, rules)
