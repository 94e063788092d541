"""Process-local fan-out of match events: one channel-layer subscription per process and match.

Before, every match socket joined the match's group with a channel of its own. A published event
was then unpacked once per socket, and it woke one consumer task per socket through Channels'
per-channel queue and `await_many_dispatch`. Here one hub per event loop joins each match's group
with a single channel, unpacks each group message once and hands it to this process's sockets of
that match in one pass, in arrival order (bench/live_load.py, issue 4).

The hub also refreshes the presence of all its sockets in one Redis pipeline per period, instead of
one timer task and two commands per socket.

The hub only relays. Sockets decide what to send: they check versions and resynchronise. Their
handlers never wait for the database while the hub waits on them (a snapshot read runs in a task
of the socket's own), so one socket does not hold up the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any, Protocol

from channels.layers import get_channel_layer

from games import presence
from games.events import match_group

log = logging.getLogger(__name__)


class HubSocket(Protocol):
    channel_name: str
    seat: int | None

    async def dispatch(self, message: dict[str, Any]) -> None: ...


class MatchHub:
    """The match sockets of one event loop, by match, and the one channel that feeds them."""

    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.sockets: dict[int, set[HubSocket]] = {}
        self.channel: str | None = None
        self.tasks: list[asyncio.Task] = []
        # Joins, leaves and presence refreshes one at a time: a group is never discarded while a
        # socket joins it, and a refresh never writes the presence of a socket that has left.
        self.lock = asyncio.Lock()

    async def join(self, match_id: int, socket: HubSocket) -> None:
        """Deliver the match's group messages to `socket` from now on (subscribed on return)."""
        async with self.lock:
            if self.channel is None:
                self.channel = await self.layer.new_channel("hub.")
                self.tasks = [
                    asyncio.create_task(self._relay(self.channel)),
                    asyncio.create_task(self._refresh_presence()),
                ]
            self.sockets.setdefault(match_id, set()).add(socket)
            await self.layer.group_add(match_group(match_id), self.channel)

    async def leave(self, match_id: int, socket: HubSocket) -> None:
        """Stop delivering to `socket`; the last socket of a match unsubscribes it. Idempotent."""
        async with self.lock:
            sockets = self.sockets.get(match_id)
            if sockets is None or socket not in sockets:
                return
            sockets.remove(socket)
            if sockets:
                return
            del self.sockets[match_id]
            await self.layer.group_discard(match_group(match_id), self.channel)
            if not self.sockets:
                # Nothing left to feed: the layer unsubscribes the channel when its reader stops.
                for task in self.tasks:
                    task.cancel()
                self.channel, self.tasks = None, []

    async def _relay(self, channel: str) -> None:
        while True:
            message = await self.layer.receive(channel)
            for socket in tuple(self.sockets.get(message.get("match"), ())):
                try:
                    await socket.dispatch(message)
                except Exception:  # one broken socket must not starve the others
                    log.exception("match %s: relaying %s failed", message.get("match"),
                                  message.get("type"))  # fmt: skip

    async def refresh_presence(self) -> None:
        """Mark every socket of this hub as present now (games/presence.py)."""
        async with self.lock:
            await presence.presence_refresh(
                (match_id, socket.channel_name, socket.seat)
                for match_id, sockets in self.sockets.items()
                for socket in sockets
            )

    async def _refresh_presence(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(presence.REFRESH_SECONDS)
                try:
                    await self.refresh_presence()
                except Exception:  # Redis away for a moment: the next period tries again
                    log.exception("presence refresh failed")


# One hub per event loop: the channel layer's connections belong to the loop that opened them
# (Daphne has one loop; tests get a new loop per test).
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, MatchHub] = weakref.WeakKeyDictionary()


def hub() -> MatchHub:
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = MatchHub()
    return _hubs[loop]
