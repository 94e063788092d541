"""`/ws/lobby/`: open challenges and live matches for the Play and Watch pages, read once per
process for all its lobby sockets, the pools' quick pairing (pairing/socket.py), and for the home
page (`?boards=1`) the small live boards instead of the lists (games/live_boards.py)."""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol
from urllib.parse import parse_qs

from config.database_thread import in_database_thread
from config.wire import json_text
from games import live_boards, presence, selectors
from games.events import LOBBY_GROUP
from ratings.selectors import ratings_of
from realtime.commands import Command, CommandRegistry, Entry, Sender
from realtime.socket import SiteSocket, echo_id

LOBBY_DEBOUNCE_SECONDS = 0.5

# The lobby socket's commands (realtime/commands.py): its own `ping`, and what the apps above
# games register from their own code (pairing/socket.py: quick pairing).
LOBBY_COMMANDS = CommandRegistry("/ws/lobby/")


class LobbyPart(Protocol):
    """What an app above games adds to every lobby socket (pairing/socket.py `PoolSeat`)."""

    async def opened(self) -> None: ...
    async def closed(self) -> None: ...
    async def notified(self, payload: dict[str, Any]) -> None: ...
    async def pool_counts(self, message: dict[str, Any]) -> None: ...


# Each makes its part of a new lobby socket; registered by the apps above games at import.
LOBBY_PARTS: list[Callable[[Any], LobbyPart]] = []


async def _read_lobby() -> tuple[dict[str, Any], str]:
    state = await in_database_thread(selectors.lobby_state)()
    counts = await presence.spectator_counts([match["id"] for match in state["live"]])
    for match in state["live"]:
        match["spectators"] = counts.get(match["id"], 0)
    return state, json_text(state)


class _SharedReads:
    """The lobby as read by this process, shared by all its lobby sockets: a burst of changes
    makes one read per process, not one per watching socket.

    A socket asks for a read that started after the moment it needs (when it heard of a change,
    or joined the lobby group): a read started earlier may miss that change, and nothing would
    tell the socket again. One read runs at a time; whoever needs a later one waits for it to end
    and then shares the next (docs/protocol.md "The lobby socket": every change is sent)."""

    def __init__(self) -> None:
        self.started_at = float("-inf")
        self.task: asyncio.Task | None = None

    async def read(self, not_before: float) -> tuple[dict[str, Any], str]:
        loop = asyncio.get_running_loop()
        while self.task is None or self.started_at < not_before:
            if self.task is not None and not self.task.done():
                await asyncio.wait([self.task])  # then the first awake starts the next one
                continue
            self.started_at, self.task = time.monotonic(), loop.create_task(_read_lobby())
        return await asyncio.shield(self.task)


# One per event loop: Daphne has one; tests get a new loop per test.
_lobby_reads: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _SharedReads] = (
    weakref.WeakKeyDictionary()
)


async def shared_lobby(*, not_before: float) -> tuple[dict[str, Any], str]:
    """The lobby state and its text from a read started at or after `not_before` (a
    `time.monotonic()`); the state is shared: copy before changing it."""
    loop = asyncio.get_running_loop()
    reads = _lobby_reads.get(loop)
    if reads is None:
        reads = _lobby_reads[loop] = _SharedReads()
    return await reads.read(not_before)


class LobbySocket(SiteSocket):
    """`/ws/lobby/`: open challenges and live matches for the Play and Watch pages, the pools'
    sizes, and quick pairing for the player on the Play page (pairing/socket.py)."""

    _pending: asyncio.Task | None = None
    _changed_at = float("-inf")  # when the last lobby change was heard (time.monotonic())
    _rating: int | None = None

    parts: tuple[LobbyPart, ...] = ()
    # The home page's socket (docs/protocol.md "Live boards"): the boards, not the lists.
    boards = False

    async def on_open(self) -> None:
        self.parts = tuple(make(self) for make in LOBBY_PARTS)
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        self.boards = query.get("boards") == ["1"]
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        if self.boards:
            await self.channel_layer.group_add(live_boards.LIVE_BOARDS_GROUP, self.channel_name)
            if (text := await live_boards.latest_text()) is not None:
                await self.send(text_data=text)
        else:
            # Changes from now on are announced to this socket; earlier ones must be in its first
            # read.
            joined = time.monotonic()
            if self.user is not None:
                self._rating = await in_database_thread(_rating_of)(self.user.pk)
            await self._send_lobby(not_before=joined)
        for part in self.parts:
            await part.opened()

    async def on_close(self) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        if self.boards:
            await self.channel_layer.group_discard(live_boards.LIVE_BOARDS_GROUP, self.channel_name)
        if self._pending is not None:
            self._pending.cancel()
        for part in self.parts:
            await part.closed()

    async def _send_lobby(self, *, not_before: float) -> None:
        state, text = await shared_lobby(not_before=not_before)
        user = self.user
        if user is not None:
            # Only the challenges this player may accept (their rating inside the range).
            visible = selectors.challenges_visible(
                state["open"], username=user.username, rating=self._rating
            )
            if len(visible) != len(state["open"]):
                text = json_text({**state, "open": visible})
        await self.send(text_data=text)

    async def on_notify(self, payload: dict[str, Any]) -> None:
        for part in self.parts:
            await part.notified(payload)

    async def pool_counts(self, message: dict[str, Any]) -> None:
        for part in self.parts:
            await part.pool_counts(message)

    async def lobby_boards(self, message: dict[str, Any]) -> None:
        """The live boards, one text made once for every socket (games/live_boards.py)."""
        await self.send(text_data=message["text"])

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        if self.boards:
            return  # the home page shows no lists; its boards come once a period
        # Many changes in a burst (games ending under load) make one refresh, and the last change
        # of a burst always gets one of its own: a change heard while a refresh was already
        # reading makes the refresh run again.
        self._changed_at = time.monotonic()
        if self._pending is None or self._pending.done():
            self._pending = asyncio.create_task(self._refresh_later())

    async def _refresh_later(self) -> None:
        while True:
            await asyncio.sleep(LOBBY_DEBOUNCE_SECONDS)
            heard = self._changed_at
            await self._send_lobby(not_before=heard)
            if self._changed_at == heard:
                return

    async def handle(self, message: dict[str, Any]) -> None:
        entry = LOBBY_COMMANDS.entry(message["type"])
        if entry is None:
            await super().handle(message)  # `unknown_type`
            return
        if entry.sender is Sender.SIGNED_IN and self.user is None:
            # Before the fields: a visitor is told to log in, whatever the frame says.
            await self.send_error("login_required", str(entry.login_message), reply_to=message)
            return
        await entry.handler(self, entry, message)

    async def _pong(self, entry: Entry, message: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "id": echo_id(message)})


@dataclass(frozen=True, kw_only=True)
class LobbyPing(Command):
    type: ClassVar[str] = "ping"


LOBBY_COMMANDS.register(LobbyPing, sender=Sender.ANYONE, handler=LobbySocket._pong)


def _rating_of(user_id: int) -> int:
    return ratings_of([user_id])[user_id].value
