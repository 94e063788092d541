"""Process-local fan-out of match messages: one Redis subscription per process and match.

A match's events and presence updates are published once on a Redis pub/sub channel of its own
(`match_channel`, games/events.py). Each event loop's hub subscribes to the matches its sockets
watch, on one pub/sub connection, decodes each message once and hands it to this process's sockets
of that match in one pass, in arrival order (bench/live_load.py: one subscription and one decode
per socket made a Daphne process saturate long before this).

Match channels may be spread over several Redis servers (settings.REDIS_CHANNEL_URLS,
docs/scaling.md "Redis"): a channel lives on the server its name hashes to, the same in every
process, and the hub keeps one subscription per server it needs.

The hub talks to Redis with its own `redis.asyncio` client: it used to ride on
channels_redis' pub/sub layer, whose publishes queued behind one another under the layer's
subscription lock, which we patched away in private methods. Publishing is now a plain PUBLISH on
a pooled connection, and nothing of channels_redis' internals is touched.

The hub also refreshes the presence of all its sockets in one Redis pipeline per period, instead of
one timer task and two commands per socket, keeps its process's presence heartbeat alive, and
watches for processes that come and go (games/presence.py): when a player's process crashed,
nobody else would say that the seat is empty, so the hubs of the other sockets of that match
publish it.

The hub only relays. Sockets decide what to send: they check versions and resynchronise. Their
handlers never wait for the database while the hub waits on them (a snapshot read runs in a task
of the socket's own), so one socket does not hold up the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
import weakref
from typing import Any, Protocol

import orjson

from config.redis_client import channel_server, client_of
from games import presence
from games.events import match_channel, match_message, match_of_channel
from realtime.publisher import publish

log = logging.getLogger(__name__)


class HubSocket(Protocol):
    channel_name: str
    seat: int | None

    async def dispatch(self, message: dict[str, Any]) -> None: ...


class MatchHub:
    """The match sockets of one event loop, by match, and the subscriptions that feed them (one
    per Redis server carrying match channels: docs/scaling.md "Redis")."""

    def __init__(self) -> None:
        self.sockets: dict[int, set[HubSocket]] = {}
        # By server URL (config/redis_client.py `channel_server`): the pub/sub connection, its
        # relaying task and the matches subscribed on it.
        self.pubsubs: dict[str, Any] = {}
        self.relays: dict[str, asyncio.Task] = {}
        self.matches_on: dict[str, set[int]] = {}
        self.tasks: list[asyncio.Task] = []
        # Who was at each match when this hub last looked (players online, spectators).
        self.seen: dict[int, tuple[tuple[bool, ...], int]] = {}
        # The processes alive at the last look, and when the next look is due whatever happens.
        self.alive: frozenset[str] | None = None
        self.next_look = 0.0
        # Joins, leaves and presence refreshes one at a time: a channel is never unsubscribed
        # while a socket joins it, and a refresh never writes the presence of a socket that left.
        self.lock = asyncio.Lock()

    async def join(self, match_id: int, socket: HubSocket) -> None:
        """Deliver the match's messages to `socket` from now on (the SUBSCRIBE is sent on return;
        an event published before Redis takes it is in the snapshot the socket reads next)."""
        async with self.lock:
            if match_id not in self.sockets:
                channel = match_channel(match_id)
                server = channel_server(channel)
                pubsub = self.pubsubs.get(server)
                if pubsub is None:
                    pubsub = client_of(server).pubsub(ignore_subscribe_messages=True)
                    self.pubsubs[server] = pubsub
                    self.matches_on[server] = set()
                await pubsub.subscribe(channel)
                self.matches_on[server].add(match_id)
                self.sockets[match_id] = set()
                if server not in self.relays:
                    # A context of its own, as the tasks below.
                    self.relays[server] = asyncio.create_task(
                        self._relay(server, pubsub), context=contextvars.Context()
                    )
            self.sockets[match_id].add(socket)
            if not self.tasks:
                # A context of their own: they serve every socket, so they must not log with the
                # match and user of the socket that happened to start them (config/log_format.py).
                self.tasks = [
                    asyncio.create_task(self._refresh_presence(), context=contextvars.Context()),
                    asyncio.create_task(self._watch_presence(), context=contextvars.Context()),
                ]

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
            self.seen.pop(match_id, None)
            channel = match_channel(match_id)
            server = channel_server(channel)
            matches = self.matches_on[server]
            matches.discard(match_id)
            if matches:
                await self.pubsubs[server].unsubscribe(channel)
            else:
                # Nothing left to feed from this server: stop relaying and give the connection
                # back.
                self.relays.pop(server).cancel()
                del self.matches_on[server]
                await self.pubsubs.pop(server).aclose()
            if not self.sockets:
                for task in self.tasks:
                    task.cancel()
                self.tasks = []

    async def _relay(self, server: str, pubsub) -> None:
        lost = False
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                try:
                    if lost:
                        # Reconnected (redis-py subscribes again on connect): whatever was
                        # published while the subscription was gone reached nobody here, and a
                        # socket that missed its match's last event sees no gap. Every socket
                        # of a match on this server gets a fresh snapshot (the Redis restart
                        # drills of tests/integration/test_production_drills.py).
                        await pubsub.ping()
                        lost = False
                        await self._deliver_to_all(server, {"type": "match.resync"})
                    async for received in pubsub.listen():
                        await self._deliver(received)
                    await asyncio.sleep(0.05)  # subscribed to nothing for a moment
                except asyncio.CancelledError:
                    raise
                except Exception:  # Redis away: try again in a second, then resynchronise
                    log.exception("match hub: reading from Redis failed")
                    lost = True
                    await asyncio.sleep(1)

    async def _deliver_to_all(self, server: str, message: dict[str, Any]) -> None:
        for match_id in tuple(self.matches_on.get(server, ())):
            for socket in tuple(self.sockets.get(match_id, ())):
                try:
                    await socket.dispatch(message)
                except Exception:  # one broken socket must not starve the others
                    log.exception("match %s: relaying %s failed", match_id, message["type"])

    async def _deliver(self, received: dict[str, Any]) -> None:
        if received.get("type") != "message":
            return
        message = orjson.loads(received["data"])
        match_id = match_of_channel(received["channel"])
        for socket in tuple(self.sockets.get(match_id, ())):
            try:
                await socket.dispatch(message)
            except Exception:  # one broken socket must not starve the others
                log.exception("match %s: relaying %s failed", match_id, message.get("type"))

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

    async def watch_presence(self) -> None:
        """Keep this process's heartbeat alive; when a process came or went since the last look
        (and every REFRESH_SECONDS in any case), publish a `presence` message for each of this
        hub's matches where who is there changed, or where a dead process's sockets were found
        (they vanish without a word: games/presence.py). Reading every match each second was
        about 4 % of the Daphne processes' Python time at 250 matches (py-spy --gil on
        bench/live_load.py), for news that comes only with a process's start or death."""
        alive = await presence.processes_alive()
        now = time.monotonic()
        if alive == self.alive and now < self.next_look:
            return
        self.alive, self.next_look = alive, now + presence.REFRESH_SECONDS
        match_ids = list(self.sockets)
        readings = await presence.presence_look(match_ids)
        for match_id, (reading, vanished) in zip(match_ids, readings, strict=True):
            here = (tuple(reading.players.values()), reading.spectators)
            before = self.seen.get(match_id)
            self.seen[match_id] = here
            if vanished or (before is not None and before != here):
                publish([match_message(match_id, {"type": "match.presence", **reading.message()})])

    async def _watch_presence(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                try:
                    await self.watch_presence()
                except Exception:  # Redis away for a moment: the next period tries again
                    log.exception("presence watch failed")
                await asyncio.sleep(presence.HEARTBEAT_SECONDS)


# One hub per event loop: a Redis connection belongs to the loop that opened it (Daphne has one
# loop; tests get a new loop per test).
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, MatchHub] = weakref.WeakKeyDictionary()


def hub() -> MatchHub:
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = MatchHub()
    return _hubs[loop]
