"""End of game, scoring, matches and the opening roll (docs/rules.md, "Who starts, colours, games
and matches")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .board import SIDES, Board, Side, borne_off, checkers_on_board, opponent_of
from .cube import MAX_CUBE_VALUE
from .ruleset import MATCH_LENGTHS, RuleSet

OIN_POINTS = 1  # the loser has borne off at least one checker
MARS_POINTS = 2  # the loser has borne off none; there is no triple win in Long Nardy

Player = Literal[0, 1]


def winner_of(board: Board) -> Side | None:
    """The side that has borne off all 15 checkers, or None while the game goes on."""
    for side in SIDES:
        if checkers_on_board(board, side) == 0:
            return side
    return None


def game_result(board: Board) -> tuple[Side, int] | None:
    """(winner, points) for a finished game: oin 1, mars 2; None while the game goes on."""
    winner = winner_of(board)
    if winner is None:
        return None
    loser_off = borne_off(board, opponent_of(winner))
    return winner, OIN_POINTS if loser_off >= 1 else MARS_POINTS


@dataclass(frozen=True)
class MatchScore:
    """Points per player (players 0 and 1; colours change between games) in a match."""

    length: int
    points: tuple[int, int] = (0, 0)
    # The player who lost the whole match by resigning, leaving or the third timeout.
    resigned: Player | None = None

    def __post_init__(self) -> None:
        if self.length not in MATCH_LENGTHS:
            raise ValueError(f"match length must be one of {MATCH_LENGTHS}, got {self.length!r}")

    @property
    def is_over(self) -> bool:
        return self.resigned is not None or max(self.points) >= self.length

    @property
    def winner(self) -> Player | None:
        if self.resigned is not None:
            return 1 if self.resigned == 0 else 0
        for player in (0, 1):
            if self.points[player] >= self.length:
                return player
        return None


def new_match(rules: RuleSet) -> MatchScore:
    return MatchScore(length=rules.match_length)


def add_game(score: MatchScore, winner: Player, points: int) -> MatchScore:
    """The score after a game won by ``winner`` for ``points``: 1 or 2 (oin, mars), or with the
    doubling cube the cube's value (nardy/cube.py)."""
    if score.is_over:
        raise ValueError("the match is already over")
    if type(points) is not int or not 1 <= points <= MAX_CUBE_VALUE:
        raise ValueError(f"a game is worth 1 to {MAX_CUBE_VALUE} points, got {points!r}")
    updated = list(score.points)
    updated[winner] += points
    return MatchScore(score.length, (updated[0], updated[1]))


def resign(score: MatchScore, player: Player) -> MatchScore:
    """Resigning (or leaving the table, or a third timeout) loses the whole match
    (docs/rules.md)."""
    if score.is_over:
        raise ValueError("the match is already over")
    return MatchScore(score.length, score.points, resigned=player)


def opening_winner(die_of_player_0: int, die_of_player_1: int) -> Player | None:
    """Who starts (and plays White) after the one-die opening roll; None on a tie (roll again)."""
    for die in (die_of_player_0, die_of_player_1):
        if type(die) is not int or not 1 <= die <= 6:
            raise ValueError(f"a die is 1..6, got {die!r}")
    if die_of_player_0 == die_of_player_1:
        return None
    return 0 if die_of_player_0 > die_of_player_1 else 1


def first_turn_dice(rules: RuleSet, opening_dice: tuple[int, int]) -> tuple[int, int] | None:
    """The starter's first roll: the two opening numbers under ``play_roll`` (never a double);
    None under ``reroll``, meaning the starter rolls both dice anew."""
    first, second = opening_dice
    if first == second:
        raise ValueError("a tied opening roll is rolled again, it is never played")
    if rules.opening == "play_roll":
        return (first, second)
    return None


def next_game_starter(previous_winner: Player, rules: RuleSet | None = None) -> Player | None:
    """In a match the previous game's winner starts the next game and plays White; under
    ``game_starter = "opening_roll"`` (Omerta, the Russian rules page) None: the opening roll
    decides again."""
    if rules is not None and rules.game_starter == "opening_roll":
        return None
    return previous_winner
