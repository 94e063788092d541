"""What one person may take of the calls, counted in Redis across all their sockets and every
Daphne process (docs/protocol.md "Calls"): a count kept in one socket let a player with many
sockets multiply it by their number.

- **Signalling**: at most CALL_SIGNALS_PER_WINDOW call commands, and CALL_SIGNAL_BYTES_PER_WINDOW
  bytes relayed to the opponent, in any CALL_WINDOW_SECONDS, per user and match. A sliding log
  (a sorted set of the accepted frames, each member carrying its size), checked and written by
  one script, so that two sockets of the player taking the last place at once cannot both get it.
- **TURN credentials**: at most CALL_TURN_CREDENTIALS_PER_HOUR sets per person, counted for an
  hour from the first of them (a counter with an expiry).
"""

from __future__ import annotations

import secrets

from django.conf import settings

from config.redis_client import client

TURN_WINDOW_SECONDS = 3600

# KEYS[1]: the log. ARGV: now, window (seconds), frames allowed, bytes allowed, this frame's
# size, a unique member "<size>:<random>". Returns 1 when the frame is taken, else 0.
_TAKE_SIGNAL = """
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local taken = redis.call('ZRANGE', KEYS[1], 0, -1)
local bytes = tonumber(ARGV[5])
for _, member in ipairs(taken) do
  bytes = bytes + tonumber(string.match(member, '^(%d+):'))
end
if #taken + 1 > tonumber(ARGV[3]) or bytes > tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', KEYS[1], now, ARGV[6])
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return 1
"""


def _key(*parts: object) -> str:
    return ":".join((settings.REDIS_PREFIX, "calls", *map(str, parts)))


async def take_signal(*, user_id: int, match_id: int, size: int, now: float) -> bool:
    """Count one call command of `size` relayed bytes; False (nothing counted) past the
    user's frames or bytes in the window."""
    script = client().register_script(_TAKE_SIGNAL)
    taken = await script(
        keys=[_key("signals", match_id, user_id)],
        args=[now, settings.CALL_WINDOW_SECONDS, settings.CALL_SIGNALS_PER_WINDOW,
              settings.CALL_SIGNAL_BYTES_PER_WINDOW, size, f"{size}:{secrets.token_hex(8)}"],
    )  # fmt: skip
    return taken == 1


async def take_turn_credentials(*, user_id: int) -> int | None:
    """Count one set of TURN credentials for this person: None when it may be given, else the
    seconds until the hour's count starts again."""
    key = _key("turn", user_id)
    async with client().pipeline(transaction=True) as pipe:
        pipe.set(key, 0, ex=TURN_WINDOW_SECONDS, nx=True)
        pipe.incr(key)
        pipe.ttl(key)
        _created, count, seconds_left = await pipe.execute()
    if count > settings.CALL_TURN_CREDENTIALS_PER_HOUR:
        return max(int(seconds_left), 1)
    return None
