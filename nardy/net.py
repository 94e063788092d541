"""The learned evaluation: a small neural network trained by self-play (bench/train_net.py).

Public API (pure: no Django, no clock, no randomness; numpy for the arithmetic):

* ``evaluate(boards, side, rules) -> ndarray (N, 3)``: for each board, with ``side`` ON ROLL
  and about to roll, the probabilities (P(win), P(win with mars), P(lose with mars)) for
  ``side``; a finished game is scored exactly, an impossible mars is exactly 0, and
  P(win with mars) <= P(win), P(lose with mars) <= 1 - P(win);
* ``equities(probabilities) -> ndarray (N,)``: the cubeless equity in points that follows
  (docs/rules.md, "Who starts, colours, games and matches": oin 1, mars 2, no triple win):
  ``2 P(win) - 1 + P(win with mars) - P(lose with mars)``, as nardy/equity.py's ``Estimate``;
* ``calibrated(probabilities)``: P(win) through the recalibration map of net_map.py (fitted by
  bench/fit_net_map.py), for reading chances; the levels play on the raw outputs;
* ``best_end_board(ends, side, rules)``: the 1-ply choice among a turn's end boards;
* ``expert_search(ends, side, rules, budget)``: the Expert level's 2-ply choice (bots.py);
* ``load()``: the committed network, its SHA-256 checked; raises ``NetUnavailable`` with a
  clear message when the weights file is missing, truncated or not the one trained.

The encoding (``encode``; 200 inputs, always from the side on roll, so "the side on roll" is
the encoding's frame rather than an input of its own, and the network is the same for both
colours). Each side's checkers are read in ITS OWN numbering (docs/rules.md, "Board, numbering
and notation": head 24, home 1..6):

* per point 1..24, per side (the side on roll first): 4 units, as Tesauro's encoding:
  n >= 1, n >= 2, n >= 3 and (n - 3) / 4 beyond; own point 24 is the head, so its units are the
  checkers still on the head (docs/rules.md, A turn, item 4);            192 inputs
* checkers borne off / 15, per side;                                           2
* no checker borne off yet, per side (mars is still possible: scoring.py);     2
* contact is over (every checker on its own 1..12, evaluation.in_race);        1
* pips to go / 360, per side;                                                  2
* the rule set: 1 when a six-block is checked after every step (the tournament rules,
  ruleset.py ``every_step``), 0 when at the end of the turn (the traditional rules).   1

One network serves both rule sets, which differ in when a six-block is checked (and so in
which turns are legal; the head rule is the same in both presets): the rule set is an input
(the last), and self-play trains on both. Other options (the head exception, single die,
block release) change rare turns, not what a position is worth; they play on the nearest
preset's input.

Network: 200 inputs, one hidden layer of ``HIDDEN`` sigmoid units, 3 sigmoid outputs (the
three probabilities), as TD-Gammon (Tesauro, "Temporal Difference Learning and TD-Gammon",
Communications of the ACM 38(3), 1995). Trained by TD(lambda) self-play (bench/train_net.py).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Iterable
from functools import lru_cache
from importlib import resources
from typing import Final

import numpy as np

from .board import POINTS, WHITE, Board, Side, opponent_of
from .fastgen import legal_end_boards
from .net_map import WIN_MAP
from .net_params import WEIGHTS_SHA256
from .ruleset import RuleSet

INPUTS: Final = 200
HIDDEN: Final = 64
OUTPUTS: Final = 3
WEIGHTS_FILE: Final = "net_weights.npz"
WEIGHT_NAMES: Final = ("hidden_weights", "hidden_bias", "output_weights", "output_bias")

# Board index of each side's own point p (entry p - 1): White's p is index p - 1, Black's p is
# White's ((p + 11) mod 24) + 1 (docs/rules.md, "Board, numbering and notation").
_OWN_INDEX: Final = {
    "w": np.arange(POINTS),
    "b": np.array([(point + 11) % POINTS for point in range(1, POINTS + 1)]),
}
_POINT_NUMBERS: Final = np.arange(1, POINTS + 1, dtype=np.float32)
_CHECKERS: Final = 15


class NetUnavailable(RuntimeError):
    """The network's weights cannot be used (missing, damaged, or not the trained ones)."""


def counts(boards: np.ndarray, side: Side) -> tuple[np.ndarray, np.ndarray]:
    """Checker counts (N, 24) by own point 1..24 (column p - 1) of ``side`` and its opponent."""
    sign = 1 if side == WHITE else -1
    mine = np.maximum(sign * boards[:, _OWN_INDEX[side]], 0)
    theirs = np.maximum(-sign * boards[:, _OWN_INDEX[opponent_of(side)]], 0)
    return mine, theirs


def _point_units(own: np.ndarray) -> np.ndarray:
    units = np.empty(own.shape + (4,), dtype=np.float32)
    units[..., 0] = own >= 1
    units[..., 1] = own >= 2
    units[..., 2] = own >= 3
    units[..., 3] = np.maximum(own - 3, 0) / 4.0
    return units.reshape(own.shape[0], -1)


def encode(boards: np.ndarray, side: Side, rules: RuleSet) -> np.ndarray:
    """The inputs (N, INPUTS) of boards (N, 24), ``side`` on roll (the module docstring)."""
    mine, theirs = counts(boards, side)
    n = boards.shape[0]
    inputs = np.empty((n, INPUTS), dtype=np.float32)
    inputs[:, 0:96] = _point_units(mine)
    inputs[:, 96:192] = _point_units(theirs)
    my_on = mine.sum(axis=1)
    their_on = theirs.sum(axis=1)
    inputs[:, 192] = (_CHECKERS - my_on) / _CHECKERS
    inputs[:, 193] = (_CHECKERS - their_on) / _CHECKERS
    inputs[:, 194] = my_on == _CHECKERS
    inputs[:, 195] = their_on == _CHECKERS
    inputs[:, 196] = (mine[:, 12:].sum(axis=1) == 0) & (theirs[:, 12:].sum(axis=1) == 0)
    inputs[:, 197] = mine @ _POINT_NUMBERS / 360.0
    inputs[:, 198] = theirs @ _POINT_NUMBERS / 360.0
    inputs[:, 199] = 1.0 if rules.six_block == "every_step" else 0.0
    return inputs


def _sigmoid(values: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(values, -40.0, 40.0)))


class Net:
    """The network's weights and its forward pass (float32)."""

    def __init__(self, weights: dict[str, np.ndarray], provenance: dict[str, object]) -> None:
        shapes = {
            "hidden_weights": (INPUTS, HIDDEN),
            "hidden_bias": (HIDDEN,),
            "output_weights": (HIDDEN, OUTPUTS),
            "output_bias": (OUTPUTS,),
        }
        for name, shape in shapes.items():
            if name not in weights or weights[name].shape != shape:
                raise NetUnavailable(f"the network's {name} is missing or not of shape {shape}")
        self.weights = {name: np.asarray(weights[name], dtype=np.float32) for name in shapes}
        self.provenance = provenance

    def hidden(self, inputs: np.ndarray) -> np.ndarray:
        return _sigmoid(inputs @ self.weights["hidden_weights"] + self.weights["hidden_bias"])

    def forward(self, inputs: np.ndarray) -> np.ndarray:
        """The raw outputs (N, 3) of inputs (N, INPUTS)."""
        hidden = self.hidden(inputs)
        return _sigmoid(hidden @ self.weights["output_weights"] + self.weights["output_bias"])

    def evaluate(self, boards: np.ndarray, side: Side, rules: RuleSet) -> np.ndarray:
        """``evaluate`` (the module docstring) with this network."""
        return finish(self.forward(encode(boards, side, rules)), boards, side)


def finish(raw: np.ndarray, boards: np.ndarray, side: Side) -> np.ndarray:
    """The network's raw outputs made consistent: finished games exact, an impossible mars 0,
    P(win with mars) <= P(win), P(lose with mars) <= 1 - P(win)."""
    mine, theirs = counts(boards, side)
    my_on = mine.sum(axis=1)
    their_on = theirs.sum(axis=1)
    out = raw.astype(np.float64, copy=True)
    out[:, 1] = np.where(their_on == _CHECKERS, np.minimum(out[:, 1], out[:, 0]), 0.0)
    out[:, 2] = np.where(my_on == _CHECKERS, np.minimum(out[:, 2], 1.0 - out[:, 0]), 0.0)
    lost = their_on == 0  # the opponent has borne everything off
    out[lost] = np.stack([np.zeros(lost.sum()), np.zeros(lost.sum()), my_on[lost] == _CHECKERS], 1)
    won = my_on == 0
    out[won] = np.stack([np.ones(won.sum()), their_on[won] == _CHECKERS, np.zeros(won.sum())], 1)
    return out


def equities(probabilities: np.ndarray) -> np.ndarray:
    """Cubeless equity in points of (N, 3) probabilities (the module docstring)."""
    return 2.0 * probabilities[:, 0] - 1.0 + probabilities[:, 1] - probabilities[:, 2]


def calibrated(probabilities: np.ndarray) -> np.ndarray:
    """(N, 3) probabilities with P(win) through the monotone recalibration map fitted on
    self-play (net_map.py, bench/fit_net_map.py; the method of equity.py's ``WIN_MAP``), the mars
    chances kept within it. For reading chances (the calibration's bins), not for choosing a
    turn: the levels play on the raw outputs their strength was measured with."""
    from_map = np.array([(0.0, 0.0), *WIN_MAP, (1.0, 1.0)])
    out = probabilities.astype(np.float64, copy=True)
    out[:, 0] = np.interp(out[:, 0], from_map[:, 0], from_map[:, 1])
    out[:, 1] = np.minimum(out[:, 1], out[:, 0])
    out[:, 2] = np.minimum(out[:, 2], 1.0 - out[:, 0])
    return out


def flip(probabilities: np.ndarray) -> np.ndarray:
    """The same chances seen by the other side: (1 - win, lose with mars, win with mars)."""
    return np.stack([1.0 - probabilities[:, 0], probabilities[:, 2], probabilities[:, 1]], axis=1)


def as_array(boards: Iterable[Board]) -> np.ndarray:
    return np.array(list(boards), dtype=np.int64).reshape(-1, POINTS)


# --- Loading: the committed weights, checked by their digest --------------------------------


def read_net(data: bytes | None, expected_sha256: str, name: str = WEIGHTS_FILE) -> Net:
    """A network from a weights file's bytes (None: the file is missing), checked first against
    ``expected_sha256``; raises NetUnavailable saying what is wrong."""
    if data is None:
        raise NetUnavailable(
            f"the Expert level's weights file {name} is missing; the level cannot be played "
            "(train it with bench/train_net.py)"
        )
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected_sha256:
        raise NetUnavailable(
            f"the Expert level's weights file {name} is damaged or not the trained one: its "
            f"SHA-256 is {digest}, expected {expected_sha256} ({len(data)} bytes)"
        )
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            weights = {key: archive[key] for key in WEIGHT_NAMES if key in archive}
            provenance = (
                json.loads(bytes(archive["provenance"]).decode())
                if ("provenance" in archive)
                else {}
            )
    except (ValueError, OSError, KeyError, zipfile.BadZipFile) as error:
        raise NetUnavailable(
            f"the Expert level's weights file {name} is unreadable: {error}"
        ) from error
    return Net(weights, provenance)


def write_net(weights: dict[str, np.ndarray], provenance: dict[str, object]) -> bytes:
    """A weights file's bytes: the four arrays and the provenance as UTF-8 JSON."""
    buffer = io.BytesIO()
    arrays = {name: np.asarray(weights[name], dtype=np.float32) for name in WEIGHT_NAMES}
    encoded = np.frombuffer(json.dumps(provenance, sort_keys=True).encode(), dtype=np.uint8)
    np.savez(buffer, provenance=encoded, **arrays)
    return buffer.getvalue()


def _package_bytes() -> bytes | None:
    source = resources.files(__package__).joinpath(WEIGHTS_FILE)
    try:
        return source.read_bytes()
    except FileNotFoundError:
        return None


@lru_cache(maxsize=1)
def load() -> Net:
    """The committed network (package data), its digest checked; NetUnavailable otherwise."""
    return read_net(_package_bytes(), WEIGHTS_SHA256)


def available() -> str | None:
    """None when the network loads, else why not (the NetUnavailable message)."""
    try:
        load()
    except NetUnavailable as error:
        return str(error)
    return None


def evaluate(boards: Iterable[Board] | np.ndarray, side: Side, rules: RuleSet) -> np.ndarray:
    """(N, 3) chances of ``side`` on roll in each board, by the committed network."""
    array = boards if isinstance(boards, np.ndarray) else as_array(boards)
    return load().evaluate(array, side, rules)


# --- Choosing a turn ------------------------------------------------------------------------

ROLLS: Final = tuple(
    ((high, low), 1.0 if high == low else 2.0) for high in range(1, 7) for low in range(1, high + 1)
)
EXPERT_CANDIDATES: Final = 10
EXPERT_BUDGET: Final = 30_000


def ranked(
    ends: Iterable[Board], side: Side, rules: RuleSet, net: Net
) -> tuple[list[Board], np.ndarray]:
    """End boards of ``side``'s turn, best first by the network at 1-ply (the opponent on roll
    after them), with their equities for ``side``; ties by the board tuple."""
    boards = sorted(ends)
    values = -equities(net.evaluate(as_array(boards), opponent_of(side), rules))
    order = sorted(range(len(boards)), key=lambda i: (-values[i], boards[i]))
    return [boards[i] for i in order], values[order]


def best_end_board(ends: Iterable[Board], side: Side, rules: RuleSet, net: Net) -> Board:
    return ranked(ends, side, rules, net)[0][0]


def _not_moved_yet(board: Board, side: Side) -> bool:
    return board[int(_OWN_INDEX[side][POINTS - 1])] * (1 if side == WHITE else -1) == _CHECKERS


def reply_value(
    board: Board, side: Side, rules: RuleSet, net: Net, budget: int
) -> tuple[float | None, int]:
    """``side``'s expected equity after the opponent's best reply to each of its 21 rolls
    (expectimax, 2-ply), and the positions evaluated; None when the budget ran out first."""
    opponent = opponent_of(side)
    first_turn = _not_moved_yet(board, opponent)
    replies: list[Board] = []
    starts: list[int] = []
    weights: list[float] = []
    for dice, weight in ROLLS:
        found = legal_end_boards(board, opponent, dice, first_turn, rules)
        starts.append(len(replies))
        replies.extend(found)
        weights.append(weight)
        if len(replies) > budget:
            return None, len(replies)
    values = equities(net.evaluate(as_array(replies), side, rules))
    worst = np.minimum.reduceat(values, np.array(starts))
    return float(np.dot(worst, weights) / 36.0), len(replies)


def deepen(
    candidates: list[Board],
    value_of: Callable[[Board, int], tuple[float | None, int]],
    budget: int,
    spent: int = 0,
) -> tuple[Board, int]:
    """The best of ``candidates`` (ordered best first by a shallower search) by ``value_of``
    (candidate, positions left -> value or None when out of budget, positions evaluated), and
    the positions spent; a candidate the budget cut short keeps no score, so the first is
    always the fallback. Master's search (bots.py) and Expert's share it."""
    best, best_value = candidates[0], None
    for candidate in candidates:
        value, evaluated = value_of(candidate, budget - spent)
        spent += evaluated
        if value is None:
            break
        if best_value is None or value > best_value:
            best, best_value = candidate, value
    return best, spent


def expert_search(
    ends: Iterable[Board], side: Side, rules: RuleSet, budget: int = EXPERT_BUDGET
) -> tuple[Board, int]:
    """The Expert level's end board and the positions it evaluated: the network's best
    ``EXPERT_CANDIDATES`` at 1-ply, each scored 2-ply (``reply_value``) while the budget of
    evaluated positions lasts (``deepen``), a bounded, deterministic search as Master's."""
    model = load()
    order, _values = ranked(ends, side, rules, model)
    return deepen(
        order[:EXPERT_CANDIDATES],
        lambda candidate, left: reply_value(candidate, side, rules, model, left),
        budget,
        spent=len(order),
    )
