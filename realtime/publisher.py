"""The process's one publisher: every message for sockets leaves a process through `publish`.

Two transports: a Redis PUBLISH on a channel of its own (a match's events and presence; the match
hubs subscribe, games/hub.py) and a channel-layer group message (a user's sockets, the lobby).

Two ways of sending, one per kind of process:

- In Daphne the event loop attaches itself (`attach`, run by every socket as it connects). From
  then on `publish`, called in a worker thread (a service's on_commit), hands the messages to the
  loop (`call_soon_threadsafe`) and returns at once: a worker thread must not wait for Redis, since
  every other socket's commands queue for the few threads (bench/live_load.py showed the queue).
  The loop sends them from one queue, in the order they were handed in: a match's events are
  committed under its lock, one command after the other, so they leave in version order.
- Where no running loop is attached (Celery workers, management commands, a view before any
  socket of the process opened) `publish` sends from the calling thread, blocking.

A Redis restart or failover takes a second or two; committed events wait for it rather than being
lost (the Redis restart drill of tests/integration/test_production_drills.py: the opponents of a
step made during the restart waited for the next event to notice the gap). A repeat is harmless:
sockets skip versions they have.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import groupby
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from config import metrics
from config.redis_client import channel_server, client_of, sync_client_of

log = logging.getLogger(__name__)

PUBLISH_RETRY_SECONDS = 30.0
PUBLISH_RETRY_ERRORS = (redis.ConnectionError, redis.TimeoutError, OSError)


@dataclass(frozen=True, slots=True)
class ChannelMessage:
    """Bytes PUBLISHed on a Redis channel (a match's: games/events.py `match_channel`)."""

    channel: str
    data: bytes


@dataclass(frozen=True, slots=True)
class GroupMessage:
    """A channel-layer message to every socket in `group` (a user's, the lobby)."""

    group: str
    message: dict[str, Any]


Message = ChannelMessage | GroupMessage


def retry_delays() -> Iterator[float | None]:
    """Pauses between PUBLISH attempts, doubling to 1 s; None once PUBLISH_RETRY_SECONDS are up
    (the caller then lets the error through)."""
    give_up_at = time.monotonic() + PUBLISH_RETRY_SECONDS
    delay = 0.05
    while time.monotonic() + delay < give_up_at:
        yield delay
        metrics.PUBLISH_RETRIES.inc()
        delay = min(1.0, delay * 2)
    yield None


class _Outbox:
    """What the loop has still to send, and the one task sending it (started when something
    arrives, ended when nothing is left: no task outlives a test's loop)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: deque[Sequence[Message]] = deque()
        self.sending: asyncio.Task | None = None
        # The PUBLISH connection of this loop's sends, made at the first: one task sends at a time,
        # so it needs no pool. Taking a pooled connection and giving it back around every batch
        # (the pool checks each for unread data as it hands it out) and redis-py's pipeline
        # object were half of the publishing's cost, 9.7 % of a Daphne process in all
        # (py-spy on bench/live_load.py, 250 matches).
        # By server: match channels may live on several (config/redis_client.py).
        self.connections: dict[str, Any] = {}

    def hand_in(self, messages: Sequence[Message]) -> None:
        """On the loop: queue `messages` behind everything handed in before."""
        self.pending.append(messages)
        if self.sending is None:
            # A context of its own: it sends for every socket, so it must not log with the match
            # and user of the one whose command started it (config/log_format.py).
            self.sending = self.loop.create_task(self._send_all(), context=contextvars.Context())

    async def _send_all(self) -> None:
        try:
            while self.pending:
                # Everything handed in meanwhile goes at once: the PUBLISHes in one write, one
                # round trip. One at a time, a saturated loop (one pass per await) would send
                # fewer than the commands it runs, and the queue would grow.
                batch = [message for messages in self.pending for message in messages]
                self.pending.clear()
                await self._send_batch(batch)
        finally:
            self.sending = None

    async def drained(self) -> None:
        while self.sending is not None:
            await asyncio.shield(self.sending)

    async def _send_batch(self, batch: list[Message]) -> None:
        channel_messages = [message for message in batch if isinstance(message, ChannelMessage)]
        if channel_messages:
            try:
                await self._publish_all(channel_messages)
            except Exception:  # noqa: BLE001 - receivers resynchronise at the next version
                log.exception("publishing %d messages failed", len(channel_messages))
        for message in batch:
            if isinstance(message, GroupMessage):
                try:
                    await get_channel_layer().group_send(message.group, message.message)
                except Exception:  # noqa: BLE001 - one bad message must not stop the others
                    log.exception("publishing to %s failed", message.group)

    async def _publish_all(self, messages: list[ChannelMessage]) -> None:
        """PUBLISH each, in order, one write per server carrying their channels."""
        for server, run in by_server(messages):
            await self._publish_on(server, run)

    async def _publish_on(self, server: str, messages: list[ChannelMessage]) -> None:
        """PUBLISH each on `server`, in order, in one write; retried whole on a fresh connection
        while Redis is briefly away (a repeat is harmless, see above)."""
        commands = [("PUBLISH", message.channel, message.data) for message in messages]
        for delay in retry_delays():
            connection = self.connections.get(server)
            if connection is None:
                connection = client_of(server).connection_pool.make_connection()
                self.connections[server] = connection
            try:
                await connection.send_packed_command(connection.pack_commands(commands))
                for _ in commands:
                    await connection.read_response()
                return
            except PUBLISH_RETRY_ERRORS:
                # Replies may be left unread on it: never reuse it.
                del self.connections[server]
                with contextlib.suppress(Exception):
                    await connection.disconnect(nowait=True)
                if delay is None:
                    raise
                await asyncio.sleep(delay)
            except BaseException:
                # Anything else (an error reply, the task cancelled at shutdown) may also leave
                # replies unread, which the next batch would take for its own.
                self.connections.pop(server, None)
                raise


def by_server(messages: list[ChannelMessage]) -> list[tuple[str, list[ChannelMessage]]]:
    """`messages` by the server of their channel, each server's in the order given (a channel's
    messages keep their order; nothing orders two channels: docs/protocol.md versions a match)."""
    runs: dict[str, list[ChannelMessage]] = {}
    for message in messages:
        runs.setdefault(channel_server(message.channel), []).append(message)
    return list(runs.items())


_outbox: _Outbox | None = None


def attach() -> None:
    """Send through the running loop from now on (called on it; cheap when attached already)."""
    global _outbox
    loop = asyncio.get_running_loop()
    if _outbox is None or _outbox.loop is not loop:
        _outbox = _Outbox(loop)


def publish(messages: Sequence[Message]) -> None:
    """Send `messages` in order: handed to the attached loop, or sent now where there is none."""
    if not messages:
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is not None:  # on a loop (the hub, a socket): never wait here
        attach()
        _outbox.hand_in(messages)  # type: ignore[union-attr]
        return
    outbox = _outbox
    if outbox is not None and outbox.loop.is_running():  # a worker thread of the loop's process
        try:
            outbox.loop.call_soon_threadsafe(outbox.hand_in, messages)
            return
        except RuntimeError:  # the loop closed meanwhile: send from here
            pass
    _send_blocking(messages)


def publish_on_commit(messages: Sequence[Message]) -> None:
    """`publish` once the current transaction commits (nothing when it rolls back)."""
    transaction.on_commit(partial(publish, messages))


async def drained() -> None:
    """Wait until everything handed to this loop is sent (tests, and a clean shutdown)."""
    if _outbox is not None and _outbox.loop is asyncio.get_running_loop():
        await _outbox.drained()


def _send_blocking(messages: Sequence[Message]) -> None:
    """From a thread with no loop, in order: each run of messages of one kind at once, the
    PUBLISHes in one pipeline (retried whole while Redis is briefly away), the group messages in
    one `async_to_sync` (each call starts a thread and a loop: a tournament's pairing wave tells
    a thousand players)."""
    for kind, run in groupby(messages, key=type):
        if kind is GroupMessage:
            async_to_sync(_group_send_all)(list(run))
        else:
            _publish_all_blocking(list(run))


async def _group_send_all(messages: list[GroupMessage]) -> None:
    layer = get_channel_layer()
    for message in messages:
        await layer.group_send(message.group, message.message)


def _publish_all_blocking(messages: list[ChannelMessage]) -> None:
    for server, run in by_server(messages):
        for delay in retry_delays():
            try:
                with sync_client_of(server).pipeline(transaction=False) as pipe:
                    for message in run:
                        pipe.publish(message.channel, message.data)
                    pipe.execute()
                break
            except PUBLISH_RETRY_ERRORS:
                if delay is None:
                    raise
                time.sleep(delay)
