"""JSON text for sockets: every frame a socket sends is made here.

orjson instead of the standard library's encoder: a match event is serialised once per command
and every ack, error and presence update once per socket, and the standard encoder was about 4 % of
a Daphne process at 500 matches (py-spy on bench/live_load.py). orjson writes the same JSON, with
non-ASCII characters as UTF-8 rather than \\u escapes, and (with OPT_NON_STR_KEYS) integer keys as
strings, as `json.dumps` does.
"""

from typing import Any

import orjson


def json_text(payload: Any) -> str:
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


# Command ids are echoed back in replies. A JSON number beyond ±2^53 is not exact in JavaScript,
# and one beyond 64 bits cannot be written back by orjson at all (the ack of a committed command
# would fail to encode and its events would never be published), so such ids are refused.
MAX_ID_LENGTH = 64
MAX_SAFE_INTEGER = 2**53


def valid_id(value: object) -> bool:
    """A command id the protocol accepts: a string of at most 64 characters or an integer within
    ±2^53 (docs/protocol.md)."""
    if isinstance(value, str):
        return len(value) <= MAX_ID_LENGTH
    return type(value) is int and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER
