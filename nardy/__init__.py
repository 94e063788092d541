"""The Long Nardy rules engine: pure Python, standard library only (no Django, no clock, no
randomness: dice are passed in; the learned evaluation, net.py, alone uses numpy). The binding
spec is docs/rules.md.

Public API (import from ``nardy``):

* values: ``Board`` (tuple of 24 signed ints), ``Side`` ("w"/"b"), ``START_BOARD``,
  ``RuleSet``, ``TRADITIONAL``, ``TOURNAMENT``, ``rule_set(name, **overrides)``,
  ``Step(source, destination, die)`` in the mover's own numbering (0 = borne off),
  ``TurnState``, ``IllegalMove``;
* whole turns: ``legal_end_boards`` (fast), ``legal_turns`` (end board -> step sequences);
* step by step: ``start_turn``, ``legal_next_steps``, ``play_step``, ``undo_step``,
  ``is_turn_complete``, ``remaining_dice``; one checker by several dice: ``combined_moves``;
* games and matches: ``winner_of``, ``game_result``, ``MatchScore``, ``new_match``, ``add_game``,
  ``resign``, ``opening_winner``, ``first_turn_dice``, ``next_game_starter``;
* auto-move: ``choose_turn`` (from the start of a turn), ``choose_rest_of_turn`` (mid-turn);
* numbering helpers: ``own_point_to_index``, ``index_to_own_point``, ``other_side_point``,
  ``validate_board``, ``board_from_points``.

The engine leaves no reference cycles behind: everything it builds is freed the moment it is
no longer used, never by Python's cycle collector. A recursive helper defined inside a function
names itself through its closure, a cycle that keeps it and everything it reached (a roll's
search, thousands of tuples) alive until the collector runs; in the Daphne processes under load
those collections stalled the event loop for 10-50 ms each (bench/live_load.py with a
gc.callbacks probe). Such a helper is unbound once used (`grow = None` in a `finally`), and
tests/nardy/test_no_garbage.py keeps it so.
"""

from .blocks import has_illegal_block
from .board import (
    BLACK,
    BORNE_OFF,
    START_BOARD,
    WHITE,
    Board,
    Side,
    board_from_points,
    borne_off,
    checkers_on_board,
    index_to_own_point,
    opponent_of,
    other_side_point,
    own_counts,
    own_point_to_index,
    pip_count,
    validate_board,
    validate_dice,
    validate_side,
)
from .chooser import choose_turn
from .combined import combined_moves
from .evaluation import evaluate
from .fastgen import legal_end_boards
from .ruleset import TOURNAMENT, TRADITIONAL, RuleSet, rule_set
from .scoring import (
    MARS_POINTS,
    OIN_POINTS,
    MatchScore,
    Player,
    add_game,
    first_turn_dice,
    game_result,
    new_match,
    next_game_starter,
    opening_winner,
    resign,
    winner_of,
)
from .sequences import IllegalMove, Step, StepSequence, apply_step, legal_turns
from .turn import (
    TurnState,
    choose_rest_of_turn,
    is_turn_complete,
    legal_next_steps,
    play_step,
    remaining_dice,
    start_turn,
    undo_step,
)

__all__ = [
    "BLACK",
    "BORNE_OFF",
    "MARS_POINTS",
    "OIN_POINTS",
    "START_BOARD",
    "TOURNAMENT",
    "TRADITIONAL",
    "WHITE",
    "Board",
    "IllegalMove",
    "combined_moves",
    "MatchScore",
    "Player",
    "RuleSet",
    "Side",
    "Step",
    "StepSequence",
    "TurnState",
    "add_game",
    "apply_step",
    "board_from_points",
    "borne_off",
    "checkers_on_board",
    "choose_rest_of_turn",
    "choose_turn",
    "evaluate",
    "first_turn_dice",
    "game_result",
    "has_illegal_block",
    "index_to_own_point",
    "is_turn_complete",
    "legal_end_boards",
    "legal_next_steps",
    "legal_turns",
    "new_match",
    "next_game_starter",
    "opening_winner",
    "opponent_of",
    "other_side_point",
    "own_counts",
    "own_point_to_index",
    "pip_count",
    "play_step",
    "remaining_dice",
    "resign",
    "rule_set",
    "start_turn",
    "undo_step",
    "validate_board",
    "validate_dice",
    "validate_side",
    "winner_of",
]
