"""The match socket: authenticate, parse, call a service, answer the sender, relay events.

No rules and no ORM here (docs/architecture.md "How code is shaped here"): services do the writes,
selectors the
reads, both through `in_database_thread` (config/database_thread.py: a worker thread that keeps
its connection). The lobby's socket is games/lobby_socket.py.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol
from urllib.parse import parse_qs

import orjson
from django.conf import settings
from django.utils.translation import gettext as _

from config import metrics
from config.database_thread import in_database_thread
from config.log_format import bind_play
from config.wire import json_text
from games import presence, selectors, services
from games.events import match_message, noting_events
from games.hub import hub
from games.protocol import commands
from games.protocol.commands import MATCH_COMMANDS
from realtime.commands import Command, Entry, ProtocolError, Sender
from realtime.errors import CommandError
from realtime.publisher import publish
from realtime.socket import SiteSocket

CLOSE_NOT_FOUND = 4404
SNAPSHOT_WINDOW_SECONDS = 60.0


class MatchPart(Protocol):
    """What an app above games adds to every match socket (chat/consumers.py `ChatPart`,
    calls/consumers.py `CallPart`)."""

    # The group messages it answers, by type (`match.chat`), each with its handler.
    handlers: dict[str, Callable[[dict[str, Any]], Awaitable[None]]]

    async def opened(self) -> None: ...
    async def add_to_snapshot(self, state: dict[str, Any]) -> None: ...


# Each makes its part of a new match socket; filled by the apps above games from their own code.
MATCH_PARTS: list[Callable[[Any], MatchPart]] = []


class MatchSocket(SiteSocket):
    """`/ws/matches/<id>/`: players play, everyone watches and chats (docs/protocol.md).

    Group messages come from this process's hub (games/hub.py), not through the socket's own
    channel. While a snapshot is being read and sent, they are held in `_held` and replayed after
    it in order; a gap in versions starts a fresh snapshot in a task of its own, so the hub never
    waits for this socket's database read.
    """

    match_id: int
    seat: int | None = None
    version: int = -1
    opened: bool = False
    # A signed-in watcher of a match that was `open` at the last snapshot: its second seat is
    # not taken yet, so this socket may still become a player's (see `_send_events`).
    may_take_seat: bool = False
    # The socket was opened with `?ack_events=1`: a player's ack carries the events of its own
    # command that this socket has not had (docs/protocol.md "ack"), and their copy through the
    # hub is skipped by version. Without it, as before: the ack, then the events by the hub.
    ack_events: bool = False
    _held: list[dict[str, Any]] | None = None
    _resync: asyncio.Task | None = None
    parts: tuple[MatchPart, ...] = ()
    # Each group message's handlers, in the parts' order: several parts may answer one type
    # (`moderation.blocks`: chat re-reads whom it hides, calls hang up on a blocked opponent).
    _part_handlers: dict[str, tuple[Callable[[dict[str, Any]], Awaitable[None]], ...]] = {}  # noqa: RUF012

    async def on_open(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        self.ack_events = query.get("ack_events") == ["1"]
        self.parts = tuple(make(self) for make in MATCH_PARTS)
        handlers: dict[str, list[Callable[[dict[str, Any]], Awaitable[None]]]] = {}
        for part in self.parts:
            for kind, handler in part.handlers.items():
                handlers.setdefault(kind, []).append(handler)
        self._part_handlers = {kind: tuple(answers) for kind, answers in handlers.items()}
        user = self.user
        bind_play(match_id=self.match_id, user_id=user.pk if user else None)
        self._snapshot_lock = asyncio.Lock()
        self._snapshot_requests: deque[float] = deque()
        # Join first, then read: an event committed in between is held, then dropped by version
        # after the snapshot, so nothing is missed and nothing is applied twice.
        self._held = []
        await hub().join(self.match_id, self)
        try:
            await self._open()
        finally:
            if not self.opened:  # no such match, or opening failed: nothing to relay
                await hub().leave(self.match_id, self)

    async def _open(self) -> None:
        snapshot = await _read_snapshot(self.match_id)
        user = self.user
        if snapshot is None or not selectors.may_see_match(snapshot.parties, user):
            # A private challenge that never started is its two parties' only (and staff's),
            # like its page (games/views.py).
            await self.send_error("not_found", _("There is no such match."))
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.seat = self._seat_in(snapshot)
        self.may_take_seat = self._may_take_seat(snapshot)
        for part in self.parts:
            await part.opened()
        await presence.presence_join(self.match_id, self.channel_name, self.seat)
        self.opened = True
        await self._send_snapshot(snapshot)
        await self._broadcast_presence()

    async def on_close(self) -> None:
        if not self.opened:
            return
        self.opened = False
        if self._resync is not None:
            self._resync.cancel()
        await hub().leave(self.match_id, self)
        await presence.presence_leave(self.match_id, self.channel_name)
        await self._broadcast_presence()

    def _seat_in(self, snapshot: selectors.Snapshot) -> int | None:
        user = self.user
        return snapshot.seats.get(user.pk) if user is not None else None

    def _may_take_seat(self, snapshot: selectors.Snapshot) -> bool:
        return snapshot.status == "open" and self.seat is None and self.user is not None

    async def _follow_seats(self, snapshot: selectors.Snapshot) -> None:
        """Take this socket's seat from a fresh snapshot: a socket opened before its user
        accepted the challenge is that player's from the start on (their commands, the
        players' chat only, their seat's presence), never a spectator's."""
        seat = self._seat_in(snapshot)
        if seat != self.seat:
            self.seat = seat
            await presence.presence_join(self.match_id, self.channel_name, seat)
            await self._broadcast_presence()
        self.may_take_seat = self._may_take_seat(snapshot)

    async def _send_snapshot(self, snapshot: selectors.Snapshot | None = None) -> None:
        """Send a snapshot (read now unless given), then the events that arrived meanwhile."""
        async with self._snapshot_lock:
            if self._held is None:
                self._held = []
            try:
                while True:
                    if snapshot is None:
                        snapshot = await _read_snapshot(self.match_id)
                        await self._follow_seats(snapshot)
                    await self._send_snapshot_of(snapshot.version, snapshot.state)
                    snapshot = None
                    while self._held and await self._send_events(self._held[0]):
                        self._held.pop(0)
                    if not self._held:
                        break  # caught up; otherwise a gap: read again
            finally:
                self._held = None

    async def _send_snapshot_of(self, version: int, state: dict[str, Any]) -> None:
        active = state["match"]["status"] == "active"
        state.update((await presence.presence_read(self.match_id, active=active)).message())
        side = None
        if self.seat is not None:
            side = next(p["side"] for p in state["match"]["players"] if p["seat"] == self.seat)
        for part in self.parts:
            await part.add_to_snapshot(state)
        user = self.user
        self.version = version
        await self.send_json(
            {
                "type": "snapshot",
                "version": version,
                "you": {"user": user.username if user else None, "seat": self.seat, "side": side},
                "state": state,
            }
        )

    async def _broadcast_presence(self) -> None:
        reading = await presence.presence_read(self.match_id)
        publish([match_message(self.match_id, {"type": "match.presence", **reading.message()})])

    async def _dispatch(self, message: dict[str, Any]) -> None:
        """Group messages a part answers go to it (`match.chat` to chat's); the rest as usual."""
        handlers = self._part_handlers.get(message["type"])
        if handlers is None:
            await super()._dispatch(message)
        for handler in handlers or ():
            await handler(message)

    # --- Commands ---------------------------------------------------------------------------------

    async def handle(self, message: dict[str, Any]) -> None:
        if not self.opened:
            return
        try:
            command, entry = MATCH_COMMANDS.parse(message)
        except ProtocolError as error:
            await self.send_error(error.code, str(error), reply_to=message)
            return
        await _BY_SENDER[entry.sender](self, entry, command, message)

    async def _anyone_command(self, entry: Entry, command: Command, message: dict[str, Any]):
        await entry.handler(self, command, message)

    async def _pong(self, command: Command, message: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "id": command.id})

    async def _signed_in_command(
        self, entry: Entry, command: Command, message: dict[str, Any]
    ) -> None:
        """A command for signed-in users (chat's): its handler returns its ack's fields."""
        user = self.user
        if user is None:
            await self.send_error("login_required", str(entry.login_message), reply_to=message)
            return
        try:
            fields = await _run_service(entry, command, user, self.match_id)
        except CommandError as failure:
            await self.send_error(failure.code, failure.message, reply_to=message)
            return
        await self.send_json({"type": "ack", "id": command.id, **fields})

    async def _requested_snapshot(self, command: Command, message: dict[str, Any]) -> None:
        """A snapshot the client asked for: each is a database read on the threads that also run
        players' moves, so a socket gets SNAPSHOT_REQUESTS_PER_MINUTE of them."""
        now = time.monotonic()
        requests = self._snapshot_requests
        while requests and now - requests[0] > SNAPSHOT_WINDOW_SECONDS:
            requests.popleft()
        if len(requests) >= settings.SNAPSHOT_REQUESTS_PER_MINUTE:
            await self.send_error(
                "rate_limited", _("Too many snapshot requests; wait a moment."), reply_to=message
            )
            return
        requests.append(now)
        await self._send_snapshot()

    async def _player_command(
        self, entry: Entry, command: Command, message: dict[str, Any]
    ) -> None:
        user = self.user
        if self.seat is None or user is None:
            await self.send_error(
                "not_a_player", _("Only the two players can do that; you are watching."),
                reply_to=message,
            )  # fmt: skip
            return
        started = time.perf_counter()
        failure: Exception | None = None
        try:
            # What the command committed is on its way to the opponent and the spectators by
            # now, whatever happens to the ack (games/effects.py, after commit).
            match, own_events = await _run_player_service(entry, command, user, self.match_id)
        except CommandError as refusal:
            failure = refusal
            await self.send_error(refusal.code, refusal.message, reply_to=message)
        except Exception as error:
            failure = error
            raise  # SiteSocket answers `internal` and logs it
        else:
            await self._acknowledge(command.id, match.version, own_events)
        finally:
            metrics.command_done(command.type, failure, time.perf_counter() - started)

    async def _acknowledge(self, command_id: Any, version: int, events: list[dict[str, Any]]):
        """The ack goes straight out. With `ack_events`, it carries the command's events this
        socket has not sent yet when they follow on from its version (the hub may have relayed
        some meanwhile; a gap, a snapshot on its way or a seat still to take leave them all to
        the hub, as without it): one frame instead of two, and the hub's copy is skipped."""
        if self.ack_events and self._held is None and not self.may_take_seat:
            events = [event for event in events if event["version"] > self.version]
            if events and events[0]["version"] == self.version + 1:
                self.version = events[-1]["version"]
                # The events' texts as the publisher serialised them, not parsed again.
                head = json_text({"type": "ack", "id": command_id, "version": version})
                texts = ",".join(event["text"] for event in events)
                await self.send(text_data=f'{head[:-1]},"events":[{texts}]}}')
                return
        await self.send_json({"type": "ack", "id": command_id, "version": version})

    # --- Group events (from the hub) ----------------------------------------------------------

    async def match_events(self, message: dict[str, Any]) -> None:
        if self._held is not None:
            self._held.append(message)  # a snapshot is on its way; these follow it
        elif not await self._send_events(message):
            # A gap (two commands' events published out of order): a fresh snapshot instead.
            self._held = [message]
            self._resync = asyncio.create_task(self._resynchronise())

    async def match_resync(self, message: dict[str, Any]) -> None:
        """The hub's Redis subscription was gone for a while (games/hub.py): events may have been
        missed with no gap to show it, so a fresh snapshot, unless one is on its way already."""
        if self._held is None and self._resync is None:
            self._held = []
            self._resync = asyncio.create_task(self._resynchronise())

    async def _resynchronise(self) -> None:
        try:
            await self._send_snapshot()
        finally:
            self._resync = None

    async def _send_events(self, message: dict[str, Any]) -> bool:
        """Send the events this socket has not had; False at a gap (nothing after it is sent),
        and when a match this socket may yet sit in starts: a fresh snapshot then re-reads the
        seats (`_follow_seats`). Seats change at the start only (docs/protocol.md)."""
        for event in message["events"]:
            if event["version"] <= self.version:
                continue  # already in the snapshot this socket sent
            if event["version"] != self.version + 1:
                return False
            if self.may_take_seat and orjson.loads(event["text"])["kind"] == "started":
                return False
            self.version = event["version"]
            await self.send(text_data=event["text"])  # serialised once by the publisher
        return True

    async def match_presence(self, message: dict[str, Any]) -> None:
        await self.send_json(
            {
                "type": "presence",
                "presence": message["presence"],
                "spectators": message["spectators"],
                # .get: a message published by a process of the previous release has neither.
                "away_ms": message.get("away_ms", {"0": None, "1": None}),
                "reconnect_seconds": message.get(
                    "reconnect_seconds", settings.RECONNECT_WINDOW_SECONDS
                ),
            }
        )


# Wrapped once: a SyncToAsync costs a few inspections to make.
_read_snapshot = in_database_thread(selectors.match_snapshot)


@in_database_thread
def _run_service(entry: Entry, command: Command, user, match_id: int) -> Any:
    """A player's or a signed-in user's command: its service, in a worker thread."""
    return entry.handler(command, user=user, match_id=match_id)


@in_database_thread
def _run_player_service(
    entry: Entry, command: Command, user, match_id: int
) -> tuple[Any, list[dict[str, Any]]]:
    """A player's command: its service, in a worker thread, with the events it committed for
    the match as they were published (games/events.py `noting_events`; none inside a caller's
    transaction, whose commit comes later)."""
    with noting_events(match_id) as events:
        match = entry.handler(command, user=user, match_id=match_id)
    return match, events


# How each kind of sender's commands run (realtime/commands.py `Sender`): every sender a
# registered command names has a way here (tests/games/test_command_registry.py).
_BY_SENDER = {
    Sender.ANYONE: MatchSocket._anyone_command,
    Sender.SIGNED_IN: MatchSocket._signed_in_command,
    Sender.PLAYER: MatchSocket._player_command,
}

# The match socket's own commands and the players', each with its service (docs/protocol.md);
# chat registers its own (chat/consumers.py).
_PLAYER_SERVICES: dict[type[Command], Any] = {
    commands.Roll: lambda command, **player: services.game_roll(**player, version=command.version),
    commands.PlayStep: lambda command, **player: services.game_step_play(
        **player, version=command.version, step=command.step
    ),
    commands.Undo: lambda command, **player: services.game_turn_undo(
        **player, version=command.version
    ),
    commands.Confirm: lambda command, **player: services.game_turn_confirm(
        **player, version=command.version
    ),
    commands.Double: lambda command, **player: services.game_cube_double(
        **player, version=command.version
    ),
    commands.Take: lambda command, **player: services.game_cube_take(
        **player, version=command.version
    ),
    commands.Drop: lambda command, **player: services.game_cube_drop(
        **player, version=command.version
    ),
    commands.Resign: lambda command, **player: services.match_resign(**player, left_table=False),
    commands.Leave: lambda command, **player: services.match_resign(**player, left_table=True),
    commands.Claim: lambda command, **player: services.match_claim_abandoned(**player),
    commands.Abort: lambda command, **player: services.match_abort(**player),
    commands.Rematch: lambda command, **player: services.match_rematch_offer(
        **player, client_seed=command.client_seed
    ),
    commands.RematchDecline: lambda command, **player: services.match_rematch_decline(**player),
    commands.ClientSeed: lambda command, **player: services.match_client_seed(
        **player, client_seed=command.client_seed
    ),
}
for _command, _service in _PLAYER_SERVICES.items():
    MATCH_COMMANDS.register(_command, sender=Sender.PLAYER, handler=_service)
MATCH_COMMANDS.register(commands.Ping, sender=Sender.ANYONE, handler=MatchSocket._pong)
MATCH_COMMANDS.register(
    commands.Snapshot, sender=Sender.ANYONE, handler=MatchSocket._requested_snapshot
)
