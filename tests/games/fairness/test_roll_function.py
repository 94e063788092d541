"""The provably fair roll function (games/fairness/dice.py): known answers, uniformity, no serial
correlation, and no Django on import (the command-line verifier must run anywhere)."""

from __future__ import annotations

import hashlib
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from games.fairness import commitment, roll_message, roll_pair
from games.fairness.dice import dice_from_bytes, pair_from_blocks

REPO_ROOT = Path(__file__).resolve().parents[3]
SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

# Chi-square critical values for p = 0.001 (any statistics table, e.g. NIST/SEMATECH e-Handbook
# 1.3.6.7.4): above these, uniform dice would be rejected with 99.9 % confidence.
CHI_SQUARE_P001_DF5 = 20.515  # six faces
CHI_SQUARE_P001_DF35 = 66.619  # 36 ordered pairs
# |r| of n independent values exceeds 3.291 / sqrt(n) with probability 0.001 (normal two-sided).
Z_P001 = 3.291


@pytest.mark.integration  # starts a process
def test_importing_the_fairness_module_loads_no_django_module() -> None:
    code = (
        "import sys, games.fairness, games.fairness.verify, games.fairness.__main__\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('django'))))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == ""


def test_known_answers() -> None:
    """Fixed seeds give these dice, worked out by hand from the HMAC bytes in the comments."""
    seeds = ("alice", "bob")
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert roll_message(seeds, 3, 17) == "alice:bob:3:17"
    # HMAC starts ac 32 ...: 172 % 6 + 1 = 5, 50 % 6 + 1 = 3
    assert roll_pair(SEED, seeds, 1, 1) == (5, 3)
    assert roll_pair(SEED, seeds, 1, 2) == (1, 2)  # 60 73 ...
    assert roll_pair(SEED, seeds, 2, 1) == (4, 3)  # c9 c8 ...
    assert roll_pair(SEED, seeds, 3, 17) == (1, 1)  # 00 06 ...
    # HMAC starts 3d fe f4: 0xfe = 254 >= 252 is skipped, so die 2 comes from 0xf4 = 244.
    assert roll_pair(SEED, seeds, 1, 12) == (2, 5)
    assert roll_pair("ff" * 32, ("0", "Z-_9"), 7, 250) == (6, 5)
    assert commitment("ff" * 32) == hashlib.sha256(b"\xff" * 32).hexdigest()


def test_rejection_sampling_skips_the_top_four_byte_values_and_reads_on() -> None:
    assert list(dice_from_bytes(bytes([0, 5, 6, 251, 252, 253, 254, 255, 11]))) == [1, 6, 1, 6, 6]
    # A block with fewer than two usable bytes continues in the next block.
    assert pair_from_blocks([bytes([255] * 31 + [7]), bytes([252, 13])]) == (2, 2)
    with pytest.raises(ValueError):
        pair_from_blocks([bytes([255] * 32)])


@pytest.mark.parametrize(
    "arguments",
    [
        (SEED, ("a:b", "c"), 1, 1),  # a ":" would make two messages equal
        (SEED, ("", "c"), 1, 1),
        (SEED, ("a" * 65, "c"), 1, 1),
        (SEED, ("a", "c"), 0, 1),
        (SEED, ("a", "c"), 1, 0),
        (SEED.upper(), ("a", "c"), 1, 1),
        (SEED[:-2], ("a", "c"), 1, 1),
    ],
)
def test_malformed_inputs_are_refused(arguments) -> None:
    with pytest.raises(ValueError):
        roll_pair(*arguments)


def many_dice(games: int = 300, rolls: int = 1000) -> list[int]:
    """600,000 dice: 300 games x 1,000 rolls x 2 dice, from one fixed server seed."""
    seed = hashlib.sha256(b"uniformity").hexdigest()
    dice: list[int] = []
    for game in range(1, games + 1):
        for roll in range(1, rolls + 1):
            dice.extend(roll_pair(seed, ("player0seed", "player1seed"), game, roll))
    return dice


def chi_square(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


FACES = list(range(1, 7))
PAIRS = [(first, second) for first in FACES for second in FACES]


@pytest.fixture(scope="module")
def dice() -> list[int]:
    values = many_dice()
    assert len(values) == 600_000
    return values


def test_faces_are_uniform(dice) -> None:
    assert chi_square(Counter(dice), FACES, len(dice)) < CHI_SQUARE_P001_DF5


def test_the_36_ordered_pairs_are_uniform(dice) -> None:
    pairs = list(zip(dice[0::2], dice[1::2], strict=True))
    assert chi_square(Counter(pairs), PAIRS, len(pairs)) < CHI_SQUARE_P001_DF35


def test_consecutive_dice_are_not_correlated(dice) -> None:
    """Each die against the next (within a roll and from one roll to the next): Pearson's r, and
    the 36 transitions' chi-square."""
    first, second = dice[:-1], dice[1:]
    n = len(first)
    mean_first, mean_second = sum(first) / n, sum(second) / n
    covariance = (
        sum((a - mean_first) * (b - mean_second) for a, b in zip(first, second, strict=True)) / n
    )
    spread_first = math.sqrt(sum((a - mean_first) ** 2 for a in first) / n)
    spread_second = math.sqrt(sum((b - mean_second) ** 2 for b in second) / n)
    r = covariance / (spread_first * spread_second)
    assert abs(r) < Z_P001 / math.sqrt(n)
    across_rolls = list(zip(dice[1:-1:2], dice[2::2], strict=True))  # die 2 -> next roll's die 1
    assert chi_square(Counter(across_rolls), PAIRS, len(across_rolls)) < CHI_SQUARE_P001_DF35


def test_the_thresholds_catch_modulo_bias() -> None:
    """The same test on `byte % 6` over all 256 byte values (the biased method) fails: the
    uniformity test has the power to see the bias rejection sampling removes."""
    seed = bytes.fromhex(hashlib.sha256(b"uniformity").hexdigest())
    biased = []
    for roll in range(1, 300_001):
        digest = hashlib.sha256(seed + roll.to_bytes(4, "big")).digest()
        biased.extend((digest[0] % 6 + 1, digest[1] % 6 + 1))
    assert chi_square(Counter(biased), FACES, len(biased)) > CHI_SQUARE_P001_DF5
