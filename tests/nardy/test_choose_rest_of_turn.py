"""The server's auto-move from a partly played turn always completes a legal turn."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import (
    START_BOARD,
    TOURNAMENT,
    TRADITIONAL,
    choose_rest_of_turn,
    is_turn_complete,
    legal_end_boards,
    legal_next_steps,
    play_step,
    start_turn,
)

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    rules=st.sampled_from([TRADITIONAL, TOURNAMENT]),
    rolls=st.lists(dice, min_size=1, max_size=30),
)
def test_auto_move_finishes_any_partial_turn_legally(seed, rules, rolls):
    chooser = random.Random(seed)
    board, side, moved = START_BOARD, "w", {"w": False, "b": False}
    for roll in rolls:
        state = start_turn(board, side, roll, not moved[side], rules)
        # A random prefix of random legal steps, then the server takes over.
        for _ in range(chooser.randint(0, 3)):
            options = legal_next_steps(state)
            if not options or is_turn_complete(state):
                break
            state = play_step(state, chooser.choice(options))
        for step in choose_rest_of_turn(state):
            state = play_step(state, step)
        assert is_turn_complete(state)
        assert state.board in legal_end_boards(board, side, roll, not moved[side], rules)
        moved[side] = True
        board, side = state.board, ("b" if side == "w" else "w")
        if min(sum(1 for v in board if v > 0), sum(1 for v in board if v < 0)) == 0:
            break
