"""The learned evaluation (nardy/net.py): its encoding, its exact scores, and its weights file
refused when missing, truncated or not the trained one."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from nardy import START_BOARD, TOURNAMENT, TRADITIONAL, board_from_points, legal_end_boards, net
from nardy.bots import CLUB, EXPERT, choose_bot_turn, choose_end_board
from nardy.net import INPUTS, Net, NetUnavailable, as_array, encode, equities, read_net, write_net
from nardy.sequences import apply_step


def random_weights(seed: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "hidden_weights": rng.normal(0, 0.3, (INPUTS, net.HIDDEN)),
        "hidden_bias": rng.normal(0, 0.3, net.HIDDEN),
        "output_weights": rng.normal(0, 0.3, (net.HIDDEN, net.OUTPUTS)),
        "output_bias": rng.normal(0, 0.3, net.OUTPUTS),
    }


def mirrored(board: tuple[int, ...]) -> tuple[int, ...]:
    """The same position with the colours swapped: White's own point p holds what Black's own
    point p held (docs/rules.md numbering: Black's p is White's index (p + 11) mod 24)."""
    result = [0] * 24
    for point in range(1, 25):
        white_index, black_index = point - 1, (point + 11) % 24
        result[white_index] = -board[black_index] if board[black_index] < 0 else result[white_index]
        if board[white_index] > 0:
            result[black_index] = -board[white_index]
    return tuple(result)


def some_position() -> tuple[int, ...]:
    return board_from_points({24: 9, 13: 3, 6: 2, 1: 1}, {24: 7, 17: 4, 2: 2, 3: 2})


def test_the_encoding_is_the_side_on_rolls_so_colours_do_not_matter() -> None:
    board = some_position()
    white_view = encode(as_array([board]), "w", TRADITIONAL)
    black_view = encode(as_array([mirrored(board)]), "b", TRADITIONAL)
    assert np.array_equal(white_view, black_view)
    assert not np.array_equal(white_view, encode(as_array([board]), "b", TRADITIONAL))


def test_the_encoding_reads_points_head_borne_off_contact_and_rules() -> None:
    board = some_position()
    inputs = encode(as_array([board]), "w", TRADITIONAL)[0]
    head = inputs[23 * 4 : 24 * 4]  # White's own point 24: nine checkers
    assert list(head) == [1.0, 1.0, 1.0, 1.5]
    assert list(inputs[0:4]) == [1.0, 0.0, 0.0, 0.0]  # one checker on the 1-point
    assert inputs[192] == pytest.approx(0.0) and inputs[193] == pytest.approx(0.0)
    assert inputs[194] == 1.0 and inputs[196] == 0.0 and inputs[199] == 0.0
    assert encode(as_array([board]), "w", TOURNAMENT)[0][199] == 1.0
    race = board_from_points({6: 5, 2: 5}, {12: 5, 1: 3})
    race_inputs = encode(as_array([race]), "w", TRADITIONAL)[0]
    assert race_inputs[196] == 1.0  # contact is over
    assert race_inputs[192] == pytest.approx(5 / 15) and race_inputs[193] == pytest.approx(7 / 15)
    assert race_inputs[194] == 0.0 and race_inputs[195] == 0.0


def test_finished_games_and_impossible_mars_are_scored_exactly() -> None:
    model = Net(random_weights(), {})
    lost_by_mars = board_from_points({}, {24: 15})  # White off: Black, on roll, lost with mars
    lost = board_from_points({}, {3: 2})
    no_mars_either_way = board_from_points({6: 3}, {5: 4})
    chances = model.evaluate(as_array([lost_by_mars, lost, no_mars_either_way]), "b", TRADITIONAL)
    assert chances[0].tolist() == [0.0, 0.0, 1.0]
    assert chances[1].tolist() == [0.0, 0.0, 0.0]
    assert chances[2][1] == 0.0 and chances[2][2] == 0.0 and 0.0 < chances[2][0] < 1.0
    assert equities(chances[:2]).tolist() == [-2.0, -1.0]


def test_the_chances_are_consistent_on_every_end_board_of_a_turn() -> None:
    model = Net(random_weights(), {})
    boards = as_array(sorted(legal_end_boards(START_BOARD, "w", (6, 6), True, TRADITIONAL)))
    chances = model.evaluate(boards, "b", TRADITIONAL)
    assert chances.shape == (len(boards), 3)
    assert (chances[:, 1] <= chances[:, 0]).all() and (chances[:, 2] <= 1 - chances[:, 0]).all()
    one_at_a_time = np.concatenate(
        [model.evaluate(boards[i : i + 1], "b", TRADITIONAL) for i in range(len(boards))]
    )
    assert np.allclose(one_at_a_time, chances)


def good_file() -> tuple[bytes, str]:
    data = write_net(random_weights(), {"seed": 3, "games": 0})
    return data, hashlib.sha256(data).hexdigest()


def test_a_weights_file_round_trips_with_its_provenance() -> None:
    data, digest = good_file()
    model = read_net(data, digest)
    assert model.provenance == {"seed": 3, "games": 0}
    assert np.allclose(model.weights["output_bias"], random_weights()["output_bias"])


def test_a_missing_weights_file_is_refused_saying_so() -> None:
    with pytest.raises(NetUnavailable, match="weights file .* is missing"):
        read_net(None, good_file()[1])


def test_a_truncated_weights_file_is_refused_by_its_digest() -> None:
    data, digest = good_file()
    with pytest.raises(NetUnavailable, match=f"damaged .* expected {digest}"):
        read_net(data[: len(data) // 2], digest)


def test_a_weights_file_with_another_digest_is_refused() -> None:
    data, _digest = good_file()
    changed = bytearray(data)
    changed[len(changed) // 2] ^= 1
    with pytest.raises(NetUnavailable, match="damaged or not the trained one"):
        read_net(bytes(changed), hashlib.sha256(data).hexdigest())
    with pytest.raises(NetUnavailable, match="damaged"):
        read_net(data, "0" * 64)


def test_a_file_of_the_right_digest_but_wrong_shapes_is_refused() -> None:
    weights = random_weights()
    weights["hidden_weights"] = weights["hidden_weights"][:10]
    data = write_net(weights, {})
    with pytest.raises(NetUnavailable, match="hidden_weights is missing or not of shape"):
        read_net(data, hashlib.sha256(data).hexdigest())
    garbage = b"not a zip archive at all"
    with pytest.raises(NetUnavailable, match="unreadable"):
        read_net(garbage, hashlib.sha256(garbage).hexdigest())


def test_load_refuses_a_missing_package_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net, "_package_bytes", lambda: None)
    net.load.cache_clear()
    try:
        assert "is missing" in (net.available() or "")
        with pytest.raises(NetUnavailable):
            net.evaluate([START_BOARD], "w", TRADITIONAL)
    finally:
        net.load.cache_clear()


def test_the_committed_weights_load_from_the_package() -> None:
    net.load.cache_clear()
    model = net.load()
    assert model.provenance["games"] > 0 and model.provenance["seed"] is not None
    assert net.available() is None


def test_the_expert_plays_a_legal_turn_deterministically() -> None:
    board = some_position()
    first = choose_end_board(EXPERT, board, "w", (5, 3), False, TRADITIONAL)
    assert first == choose_end_board(EXPERT, board, "w", (5, 3), False, TRADITIONAL)
    assert first[0] in legal_end_boards(board, "w", (5, 3), False, TRADITIONAL)
    steps = choose_bot_turn(EXPERT, START_BOARD, "w", (6, 6), True, TOURNAMENT)
    end = START_BOARD
    for step in steps:
        end = apply_step(end, "w", step)
    target, played = choose_end_board(EXPERT, START_BOARD, "w", (6, 6), True, TOURNAMENT)
    assert end == target and len(steps) == played == 2  # two from the head on a first 6-6


def test_the_expert_search_keeps_to_its_budget() -> None:
    board = some_position()
    ends = legal_end_boards(board, "w", (6, 5), False, TRADITIONAL)
    one_ply = net.best_end_board(ends, "w", TRADITIONAL, net.load())
    chosen, spent = net.expert_search(ends, "w", TRADITIONAL, budget=len(ends))
    assert chosen == one_ply and spent <= len(ends) + 2000  # stopped within the first candidate
    _deep, spent = net.expert_search(ends, "w", TRADITIONAL)
    assert spent <= net.EXPERT_BUDGET + 2000


def test_the_expert_refuses_to_play_on_damaged_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    damaged = net._package_bytes()[:-100]
    monkeypatch.setattr(net, "_package_bytes", lambda: damaged)
    net.load.cache_clear()
    try:
        with pytest.raises(NetUnavailable, match="damaged"):
            choose_end_board(EXPERT, some_position(), "w", (5, 3), False, TRADITIONAL)
        # The other levels play on the static evaluation, unaffected.
        assert choose_end_board(CLUB, some_position(), "w", (5, 3), False, TRADITIONAL)[1] == 2
    finally:
        net.load.cache_clear()
