"""Invariants of the engine, checked on positions from random self-play and random valid boards."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy import (
    START_BOARD,
    Board,
    RuleSet,
    Side,
    apply_step,
    board_from_points,
    checkers_on_board,
    choose_turn,
    combined_moves,
    has_illegal_block,
    is_turn_complete,
    legal_end_boards,
    legal_next_steps,
    legal_turns,
    opponent_of,
    other_side_point,
    own_point_to_index,
    pip_count,
    play_step,
    start_turn,
    winner_of,
)
from nardy.combined import literal_combined_moves
from nardy.sequences import Step, dice_list, head_limit, step_problem
from nardy.turn import TurnState, literal_next_steps, literal_turn_complete

PROPERTY_SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

dice_strategy = st.tuples(st.integers(1, 6), st.integers(1, 6))
rules_strategy = st.builds(
    RuleSet,
    six_block=st.sampled_from(["end_of_turn", "every_step"]),
    head_exception=st.sampled_from(["classic", "generalised"]),
    single_die=st.sampled_from(["larger", "choice"]),
    block_release=st.sampled_from(["ahead", "home"]),
)


@st.composite
def self_play_positions(draw: st.DrawFn) -> tuple[Board, Side, bool, RuleSet]:
    """A position reached from the start by the engine itself, with hypothesis-drawn dice."""
    rules = draw(rules_strategy)
    turns = draw(st.lists(st.tuples(dice_strategy, st.integers(0, 10_000)), max_size=90))
    board: Board = START_BOARD
    side: Side = "w"
    played = {"w": 0, "b": 0}
    for dice, choice in turns:
        ends = sorted(legal_end_boards(board, side, dice, played[side] == 0, rules))
        board = ends[choice % len(ends)]
        played[side] += 1
        if winner_of(board) is not None:
            break
        side = opponent_of(side)
    if winner_of(board) is not None:
        side = opponent_of(side)  # the loser still to move: its checkers remain
    return board, side, played[side] == 0, rules


@st.composite
def random_boards(draw: st.DrawFn) -> tuple[Board, Side, bool, RuleSet]:
    """Any board with at most 15 checkers a side and no shared point (often home-heavy, often
    with the mover one or two checkers short of a six-point block)."""
    board = [0] * 24
    mover: Side = draw(st.sampled_from(["w", "b"]))
    opponent = opponent_of(mover)
    remaining = {"w": draw(st.sampled_from([15, 15, 15, 14, 10, 3, 1])), "b": 15}
    remaining[opponent] = draw(st.sampled_from([15, 15, 15, 14, 10, 3, 1]))
    if draw(st.booleans()):
        # A run along the opponent's path (opponent points q..q+k), with a gap or two.
        start = draw(st.integers(1, 19))
        length = draw(st.integers(4, 7))
        for q in range(start, min(start + length, 25)):
            if draw(st.integers(0, 4)) == 0:
                continue
            index = own_point_to_index(opponent, q)
            sign = 1 if mover == "w" else -1
            if remaining[mover] > 0:
                board[index] += sign
                remaining[mover] -= 1
    for side, sign in (("w", 1), ("b", -1)):
        count = remaining[side]
        top = draw(st.sampled_from([6, 8, 12, 24]))
        points = draw(st.lists(st.integers(1, top), min_size=count, max_size=count))
        for point in points:
            index = own_point_to_index(side, point)  # type: ignore[arg-type]
            if board[index] * sign >= 0:
                board[index] += sign
    return tuple(board), mover, draw(st.booleans()), draw(rules_strategy)


@st.composite
def near_block_positions(draw: st.DrawFn) -> tuple[Board, Side, bool, RuleSet]:
    """The mover holds five points of a six-run along the opponent's path, with one gap, and
    a runner some pips above the gap; every opposing checker is behind the run or past it."""
    mover: Side = draw(st.sampled_from(["w", "b"]))
    opponent = opponent_of(mover)
    sign = 1 if mover == "w" else -1
    board = [0] * 24
    start = draw(st.integers(1, 17))  # the run covers opponent points start..start+5
    gap = draw(st.integers(0, 5))
    run_own = [other_side_point(q) for q in range(start, start + 6)]
    placed = 0
    for offset, point in enumerate(run_own):
        if offset != gap:
            board[own_point_to_index(mover, point)] = sign * 2
            placed += 2
    gap_point = run_own[gap]
    distance = draw(st.integers(1, 12))
    runner = gap_point + distance
    if runner <= 24 and board[own_point_to_index(mover, runner)] == 0:
        board[own_point_to_index(mover, runner)] = sign
        placed += 1
    head = own_point_to_index(mover, 24)
    if board[head] * sign >= 0:
        board[head] += sign * (15 - placed)
    # Opponent: all behind the run (higher opponent points), or one checker past it.
    behind = [q for q in range(start + 6, 25) if board[own_point_to_index(opponent, q)] == 0]
    past = [q for q in range(1, start) if board[own_point_to_index(opponent, q)] == 0]
    opponent_points = behind[-3:] if behind else []
    if past and draw(st.booleans()):
        opponent_points.append(draw(st.sampled_from(past)))
    for number, q in enumerate(opponent_points):
        board[own_point_to_index(opponent, q)] = -sign * (
            15 - len(opponent_points) + 1 if number == 0 else 1
        )
    return tuple(board), mover, False, draw(rules_strategy)


positions = st.one_of(self_play_positions(), random_boards(), near_block_positions())


@PROPERTY_SETTINGS
@given(positions, dice_strategy)
def test_checkers_conserved_and_never_on_an_opposing_checker(position, dice) -> None:
    board, side, first_turn, rules = position
    opponent = opponent_of(side)
    turns = legal_turns(board, side, dice, first_turn, rules)
    for end, sequences in turns.items():
        for index in range(24):
            if board[index] * (1 if opponent == "w" else -1) > 0:
                assert end[index] == board[index]  # the opponent never moves, nothing is hit
            else:
                assert end[index] * (1 if side == "w" else -1) >= 0  # no opposing checker here
        bear_offs = sum(1 for step in sequences[0] if step.destination == 0)
        assert checkers_on_board(end, side) == checkers_on_board(board, side) - bear_offs
        assert checkers_on_board(end, opponent) == checkers_on_board(board, opponent)


@PROPERTY_SETTINGS
@given(positions, dice_strategy)
def test_fast_generator_matches_the_literal_enumerator(position, dice) -> None:
    board, side, first_turn, rules = position
    assert legal_end_boards(board, side, dice, first_turn, rules) == set(
        legal_turns(board, side, dice, first_turn, rules)
    )


def _literal_and_fast_agree(state) -> None:
    """The board's three questions (nardy/prefixes.py) answered as the literal listing of
    every complete legal turn answers them."""
    assert legal_next_steps(state) == literal_next_steps(state), state
    assert is_turn_complete(state) == literal_turn_complete(state), state
    assert combined_moves(state) == literal_combined_moves(state), state


@PROPERTY_SETTINGS
@given(positions, dice_strategy, st.lists(st.integers(0, 1000), min_size=5, max_size=5))
def test_the_answers_at_each_step_match_the_literal_enumerator(position, dice, choices) -> None:
    """At every step of a turn played with drawn choices, and after a step that breaks the
    turn (any playable step not offered, or one of a die not rolled): the same answers."""
    board, side, first_turn, rules = position
    state = start_turn(board, side, dice, first_turn, rules)
    for choice in choices:
        _literal_and_fast_agree(state)
        offered = legal_next_steps(state)
        sign = 1 if side == "w" else -1
        own = [p for p in range(24, 0, -1) if state.board[own_point_to_index(side, p)] * sign > 0]
        stray = [
            Step(point, max(point - die, 0), die)
            for point in own
            for die in range(1, 7)
            if Step(point, max(point - die, 0), die) not in offered
        ]
        if stray:
            wrong = state.steps + (stray[choice % len(stray)],)
            _literal_and_fast_agree(TurnState(board, side, dice, first_turn, rules, wrong))
        if not offered:
            break
        state = play_step(state, offered[choice % len(offered)])
    _literal_and_fast_agree(state)


def test_the_answers_match_the_literal_enumerator_on_every_roll_of_chosen_positions() -> None:
    """Every roll from the start (the head exceptions of the first turn), from a position in
    the middle, and from two where some rolls play one die only (one checker left, hemmed in;
    one checker to bear off from point 2), under the larger-die rule and the mover's choice:
    the same answers at each step of every complete turn."""
    from nardy import TOURNAMENT, TRADITIONAL

    middle = board_from_points({24: 9, 19: 2, 13: 2, 6: 2}, {24: 11, 20: 2, 8: 2})
    hemmed = board_from_points({12: 1}, {22: 1, 18: 1, 10: 1, 5: 1, 15: 2, 9: 1, 16: 1, 6: 1})
    last = board_from_points({2: 1}, {17: 2, 12: 1, 18: 1, 9: 1})
    choice = RuleSet(single_die="choice", head_exception="generalised")
    positions = ((START_BOARD, True), (middle, False), (hemmed, False), (last, False))
    for board, first_turn in positions:
        for first in range(1, 7):
            for second in range(1, 7):
                for rules in (TRADITIONAL, TOURNAMENT, choice):
                    states = [start_turn(board, "w", (first, second), first_turn, rules)]
                    while states:
                        state = states.pop()
                        _literal_and_fast_agree(state)
                        states += [play_step(state, step) for step in legal_next_steps(state)]


@PROPERTY_SETTINGS
@given(positions, dice_strategy)
def test_every_legal_turn_uses_the_maximum_number_of_dice(position, dice) -> None:
    board, side, first_turn, rules = position
    turns = legal_turns(board, side, dice, first_turn, rules)
    lengths = {len(seq) for seqs in turns.values() for seq in seqs}
    assert len(lengths) == 1
    (played,) = lengths
    all_dice = dice_list(dice)
    for end, sequences in turns.items():
        if rules.six_block == "end_of_turn" and played:
            assert not has_illegal_block(end, side, rules.block_release)
        for sequence in sequences:
            # Pips: an exact step moves ``die`` pips; bearing off moves at most ``die``.
            moved = pip_count(board, side) - pip_count(end, side)
            assert moved <= sum(step.die for step in sequence)
            if not any(step.destination == 0 for step in sequence):
                assert moved == sum(step.die for step in sequence)
        if played == len(all_dice):
            continue
        # No legal turn may be extended by one more die ending in a legal position.
        sequence = sequences[0]
        left = list(all_dice)
        for step in sequence:
            left.remove(step.die)
        heads = sum(1 for step in sequence if step.source == 24)
        limit = head_limit(board, side, dice, first_turn, rules)
        for die in set(left):
            for source in range(1, 25):
                step = Step(source, max(source - die, 0), die)
                if step_problem(end, side, step, heads, limit, rules) is None:
                    longer = apply_step(end, side, step)
                    assert rules.six_block == "end_of_turn"
                    assert has_illegal_block(longer, side, rules.block_release)
    if played == 1 and dice[0] != dice[1] and rules.single_die == "larger":
        used = {seq[0].die for seqs in turns.values() for seq in seqs}
        assert len(used) == 1


@PROPERTY_SETTINGS
@given(positions, dice_strategy, st.lists(st.integers(0, 1000), min_size=4, max_size=4))
def test_legal_next_steps_always_lead_to_a_legal_end_board(position, dice, choices) -> None:
    board, side, first_turn, rules = position
    ends = legal_end_boards(board, side, dice, first_turn, rules)
    state = start_turn(board, side, dice, first_turn, rules)
    for choice in choices:
        steps = legal_next_steps(state)
        if not steps:
            break
        for step in steps:  # every highlighted step begins some complete legal turn
            assert any(
                seq[: len(state.steps) + 1] == state.steps + (step,)
                for seqs in legal_turns(board, side, dice, first_turn, rules).values()
                for seq in seqs
            )
        state = play_step(state, steps[choice % len(steps)])
    assert legal_next_steps(state) == ()
    assert is_turn_complete(state)
    assert state.board in ends


@PROPERTY_SETTINGS
@given(positions, dice_strategy)
def test_result_does_not_depend_on_the_order_of_the_dice(position, dice) -> None:
    board, side, first_turn, rules = position
    swapped = (dice[1], dice[0])
    assert legal_end_boards(board, side, dice, first_turn, rules) == legal_end_boards(
        board, side, swapped, first_turn, rules
    )


@PROPERTY_SETTINGS
@given(positions, dice_strategy)
def test_choose_turn_plays_a_complete_legal_turn(position, dice) -> None:
    board, side, first_turn, rules = position
    chosen = choose_turn(board, side, dice, first_turn, rules)
    turns = legal_turns(board, side, dice, first_turn, rules)
    assert any(chosen in sequences for sequences in turns.values())
    assert chosen == choose_turn(board, side, dice, first_turn, rules)


def test_near_block_sweep_fast_matches_literal() -> None:
    """Deterministic sweep: five points of a six-run, every gap, a runner at every distance
    above the gap, every roll, both block modes (catches pre-check shortcuts in fastgen)."""
    from nardy import TOURNAMENT, TRADITIONAL

    start = 2  # White holds Black's points 2..7 (White's 14..19) but one
    for gap in range(6):
        run_white = [other_side_point(q) for q in range(start, start + 6)]
        for distance in range(2, 13):
            white = {p: 2 for offset, p in enumerate(run_white) if offset != gap}
            runner = run_white[gap] + distance
            if runner > 24 or runner in white:
                continue
            white[runner] = 1
            white[24] = white.get(24, 0) + 15 - sum(white.values())
            board = board_from_points(white, {24: 13, 23: 2})  # all behind the run
            for first in range(1, 7):
                for second in range(first, 7):
                    for rules in (TRADITIONAL, TOURNAMENT):
                        dice = (first, second)
                        assert legal_end_boards(board, "w", dice, False, rules) == set(
                            legal_turns(board, "w", dice, False, rules)
                        ), (board, dice, rules.six_block)
