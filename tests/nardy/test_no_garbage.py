"""The engine leaves no reference cycles (nardy/__init__.py): what a turn's search builds
is freed by reference counting as soon as it is unused, never left for the cycle collector,
whose passes stall a Daphne process's event loop."""

from __future__ import annotations

import gc
import random
import types

from nardy import (
    START_BOARD,
    TRADITIONAL,
    choose_turn,
    combined_moves,
    is_turn_complete,
    legal_next_steps,
    legal_turns,
    opponent_of,
    play_step,
    start_turn,
    winner_of,
)


def play_random_turns(rng: random.Random, turns: int) -> None:
    """Turns of a game from the start, each step picked at random among the legal next steps,
    asking at each what the board asks (combined moves), and per roll the whole-turn searches
    (every legal turn, the computer's choice)."""
    board, side, first = START_BOARD, "w", {"w": True, "b": True}
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        legal_turns(board, side, dice, first[side], TRADITIONAL)
        choose_turn(board, side, dice, first[side], TRADITIONAL)
        state = start_turn(board, side, dice, first[side], TRADITIONAL)
        while not is_turn_complete(state):
            combined_moves(state)
            state = play_step(state, rng.choice(legal_next_steps(state)))
        board, first[side] = state.board, False
        if winner_of(board) is not None:
            return
        side = opponent_of(side)


def test_a_game_of_turns_leaves_nothing_for_the_cycle_collector():
    play_random_turns(random.Random(0), 4)  # the modules' own first-use caches
    gc.collect()
    gc.disable()
    try:
        for seed in range(6):
            play_random_turns(random.Random(seed), 60)
        # What the collector would free is kept in gc.garbage to be looked at. Only the engine's
        # own is judged: a thread of another library in this process may leave garbage meanwhile.
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        engines = [
            found
            for found in gc.garbage
            if isinstance(found, types.FunctionType) and found.__module__.startswith("nardy")
        ]
        found_in_all = len(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert [function.__qualname__ for function in engines] == [], f"{found_in_all} objects"
