"""The home page's small live boards, read once a period for the whole site.

Celery beat runs `publish` every LIVE_BOARDS_SECONDS (games.publish_live_boards): one read of the
top live matches with their boards and the players online (games/selectors.py `live_boards`), one
JSON text, kept in Redis and sent to the lobby sockets that show the boards (the `lobby.boards`
group, docs/protocol.md "Live boards") only when it differs from the last one. So the boards move
at most once a period, however many steps were played, and the server's work does not grow with
the sockets: each relays the same text (games/lobby_socket.py), a page or a socket that opens
reads the kept one.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.conf import settings

from accounts.selectors import players_online
from config.redis_client import client, sync_client
from config.wire import json_text
from games import selectors
from realtime.publisher import GroupMessage
from realtime.publisher import publish as send

LIVE_BOARDS_GROUP = "lobby.boards"
# The kept text outlives a few missed periods, then lapses: a page never shows boards frozen by a
# stopped beat for long.
KEPT_PERIODS = 5


def _key() -> str:
    return f"{settings.REDIS_PREFIX}:live-boards"


def live_boards_message() -> dict[str, Any]:
    return {
        "type": "live_boards",
        "matches": selectors.live_boards(),
        "live": selectors.live_match_count(),
        "online": players_online(),
    }


def publish() -> bool:
    """Read the boards, keep them, and send them to the group if they changed; True if sent."""
    text = json_text(live_boards_message())
    kept_for = max(1, round(KEPT_PERIODS * settings.LIVE_BOARDS_SECONDS))
    before = sync_client().set(_key(), text, ex=kept_for, get=True)
    if before is not None and before.decode() == text:
        return False
    send([GroupMessage(LIVE_BOARDS_GROUP, {"type": "lobby.boards", "text": text})])
    return True


def latest() -> dict[str, Any]:
    """The last boards sent (for a page being drawn), else read now (no beat running)."""
    text = sync_client().get(_key())
    return orjson.loads(text) if text is not None else live_boards_message()


async def latest_text() -> str | None:
    """The last boards sent, for a lobby socket that opens (None: none kept; the next period's
    will come)."""
    text = await client().get(_key())
    return text.decode() if text is not None else None
