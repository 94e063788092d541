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
