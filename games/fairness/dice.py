"""Provably fair dice: the one roll function, shared by the server and every verifier.

Pure standard library (no Django): `python -m games.fairness verify` and the tests import it alone.
The method, byte for byte (also on the site's "Fair dice" page, templates/fairness/):

* The **server seed** is 32 random bytes (`secrets.token_bytes`), written as 64 lowercase hex
  digits. Its **commitment** is SHA-256 of those 32 bytes (not of the hex text), in hex.
* A **client seed** is 1 to 64 characters from ``A-Z a-z 0-9 _ -`` (so no ``:``); seat 0 is the
  creator of the match, seat 1 the opponent.
* Roll *r* (counted from 1 in each game, opening rolls and their ties included) of game *g*
  (counted from 1) is keyed by the ASCII message ``"<client seed 0>:<client seed 1>:<g>:<r>"``
  (numbers in decimal, no leading zeros).
* Block 0 is HMAC-SHA256(key = the 32 server-seed bytes, message). If a block ever runs out of
  usable bytes, block *k* (k = 1, 2, ...) is HMAC-SHA256(key, message + ":" + k).
* The blocks' bytes are read in order; a byte *b* < 252 gives the die ``b % 6 + 1`` (252 = 6 x 42,
  so each face has exactly 42 of the usable values), a byte >= 252 is skipped (rejection sampling:
  never ``% 6`` on the biased range 0-255). The first usable byte is die 1, the second die 2.
* The opening roll is one draw: die 1 is seat 0's die, die 2 seat 1's. A turn's roll is one draw:
  its two dice in that order.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Iterator
from functools import lru_cache

SERVER_SEED_BYTES = 32
CLIENT_SEED_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
SERVER_SEED_PATTERN = re.compile(r"[0-9a-f]{64}")
# The largest multiple of 6 not above 256: bytes 0..251 map evenly onto the six faces.
USABLE_BYTES = 252


def new_server_seed() -> str:
    """A fresh secret server seed: 32 bytes from the operating system's CSPRNG, in hex."""
    return secrets.token_bytes(SERVER_SEED_BYTES).hex()


def new_client_seed() -> str:
    """A client seed for a seat whose browser sent none (16 random bytes, in hex)."""
    return secrets.token_hex(16)


@lru_cache(maxsize=4096)
def commitment(server_seed: str) -> str:
    """SHA-256 of the server seed's 32 bytes, in hex: published before any die is rolled.
    Kept for the live matches' seeds: every event's match section shows it (1 % of a Daphne
    process, bench/live_load.py)."""
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


def is_client_seed(value: object) -> bool:
    return isinstance(value, str) and CLIENT_SEED_PATTERN.fullmatch(value) is not None


def is_server_seed(value: object) -> bool:
    return isinstance(value, str) and SERVER_SEED_PATTERN.fullmatch(value) is not None


def roll_message(client_seeds: tuple[str, str], game: int, roll: int) -> str:
    """The HMAC message of roll ``roll`` of game ``game``."""
    for seed in client_seeds:
        if not is_client_seed(seed):
            raise ValueError(f"a client seed is 1-64 characters of A-Z a-z 0-9 _ -, got {seed!r}")
    if type(game) is not int or type(roll) is not int or game < 1 or roll < 1:
        raise ValueError("game and roll numbers count from 1")
    return f"{client_seeds[0]}:{client_seeds[1]}:{game}:{roll}"


def dice_from_bytes(data: bytes) -> Iterator[int]:
    """The dice a byte string gives, in order: bytes below 252 give ``b % 6 + 1``, others none."""
    for byte in data:
        if byte < USABLE_BYTES:
            yield byte % 6 + 1


def _blocks(key: bytes, message: str) -> Iterator[bytes]:
    yield hmac.new(key, message.encode("ascii"), hashlib.sha256).digest()
    block = 1
    while True:  # reached with probability about 1e-54 (31 of 32 bytes rejected)
        yield hmac.new(key, f"{message}:{block}".encode("ascii"), hashlib.sha256).digest()
        block += 1


def pair_from_blocks(blocks: Iterable[bytes]) -> tuple[int, int]:
    """The first two dice the blocks' usable bytes give."""
    dice: list[int] = []
    for block in blocks:
        for die in dice_from_bytes(block):
            dice.append(die)
            if len(dice) == 2:
                return dice[0], dice[1]
    raise ValueError("the blocks ran out before two dice were found")


def roll_pair(
    server_seed: str, client_seeds: tuple[str, str], game: int, roll: int
) -> tuple[int, int]:
    """The two dice of roll ``roll`` of game ``game`` (see the module docstring)."""
    return pair_from_blocks(
        _blocks(_seed_bytes(server_seed), roll_message(client_seeds, game, roll))
    )


def _seed_bytes(server_seed: str) -> bytes:
    if not is_server_seed(server_seed):
        raise ValueError("a server seed is 64 lowercase hex digits (32 bytes)")
    return bytes.fromhex(server_seed)
