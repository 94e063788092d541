"""`/ws/tournaments/<id>/`: a tournament's live page (docs/protocol.md "Tournament socket").

On open the socket sends the state: the status and times, the viewer's own standing and page of
the standings, the top games. Standings come coalesced (tournaments/live.py: at most one
`tournament.standings` per second per tournament, whatever happened), read once per process per
version (tournaments/selectors.py); the top games' boards come once a second from the sweep;
chat lines at once. Commands: `join`, `withdraw`, `pause`, `page`, `chat`, `ping`; each refusal
is an `error` with the service's code, and changes nothing.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import parse_qs

from django.utils.translation import gettext as _

from config.database_thread import in_database_thread
from realtime.commands import Command, CommandRegistry, ProtocolError, Sender, wire
from realtime.errors import CommandError
from realtime.socket import SiteSocket, echo_id
from tournaments import live, selectors
from tournaments.services.chat import tournament_chat_post
from tournaments.services.players import (
    may_see,
    tournament_join,
    tournament_pause,
    tournament_withdraw,
)

TOURNAMENT_COMMANDS = CommandRegistry("/ws/tournaments/<id>/")


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError("bad_field", _("pause must be true or false."))
    return value


def _page(value: object) -> int:
    if type(value) is not int or not 0 < value <= 10_000:
        raise ProtocolError("bad_field", _("page must be a whole number from 1 to 10000."))
    return value


def _as_sent(value: object) -> object:
    return value  # checked by tournaments/services/chat.py (its own refusals)


@dataclass(frozen=True, kw_only=True)
class Join(Command):
    type: ClassVar[str] = "join"


@dataclass(frozen=True, kw_only=True)
class Withdraw(Command):
    type: ClassVar[str] = "withdraw"


@dataclass(frozen=True, kw_only=True)
class Pause(Command):
    type: ClassVar[str] = "pause"
    pause: bool = wire(_flag)


@dataclass(frozen=True, kw_only=True)
class Page(Command):
    type: ClassVar[str] = "page"
    page: int = wire(_page)


@dataclass(frozen=True, kw_only=True)
class Chat(Command):
    type: ClassVar[str] = "chat"
    text: str = wire(_as_sent)


@dataclass(frozen=True, kw_only=True)
class Ping(Command):
    type: ClassVar[str] = "ping"


def _opening_state(tournament_id: int, user, token: str | None) -> dict[str, Any] | None:
    tournament = selectors.tournament_for_page(tournament_id)
    if tournament is None or not may_see(tournament, user, token):
        return None
    return {"version": tournament.version}


def _read_standings(tournament_id: int, version: int) -> tuple[str, list[selectors.Row]]:
    """The tournament's status and standings at `version`: read once per process per version
    (selectors.standings_snapshot), whichever of its sockets asks first."""
    tournament = selectors.tournament_for_page(tournament_id)
    return (
        tournament.status if tournament else "cancelled",
        selectors.standings_snapshot(tournament_id, version),
    )


def _standings(status: str, rows: list, version: int, page: int, user_id: int | None) -> dict:
    """One socket's `standings` message: its page and its viewer's own row, cut from the
    shared read without a query (docs/protocol.md "Tournament socket")."""
    return {
        "type": "standings",
        "version": version,
        "status": status,
        **selectors.standings_page(rows, page=page, user_id=user_id),
        "podium": selectors.podium(rows) if status == "finished" else [],
    }


# This process's reads in flight, by (tournament, version): the sockets of a tournament that hear
# of a new version at once share one read (tournaments/live.py).
_reads: dict[tuple[int, int], asyncio.Future] = {}


async def _shared_read(tournament_id: int, version: int) -> tuple[str, list]:
    key = (tournament_id, version)
    future = _reads.get(key)
    if future is None:
        future = _reads[key] = asyncio.ensure_future(
            in_database_thread(_read_standings)(tournament_id, version)
        )
        future.add_done_callback(lambda _done: _reads.pop(key, None))
    return await asyncio.shield(future)


class TournamentSocket(SiteSocket):
    tournament_id: int = 0
    page: int = 1
    sent_version: int = -1
    group: str | None = None
    token: str | None = None

    async def on_open(self) -> None:
        self.tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        self.token = token = (query.get("key") or [None])[0]
        opening = await in_database_thread(_opening_state)(self.tournament_id, self.user, token)
        if opening is None:
            await self.send_error("not_found", _("There is no such tournament."))
            await self.close()
            return
        self.group = live.group_name(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self._send_standings(opening["version"], force=True)

    async def on_close(self) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def _send_standings(self, version: int, *, force: bool = False) -> None:
        if version <= self.sent_version and not force:
            return
        status, rows = await _shared_read(self.tournament_id, version)
        user_id = self.user.pk if self.user else None
        self.sent_version = max(self.sent_version, version)
        await self.send_json(_standings(status, rows, version, self.page, user_id))

    # --- Messages from the group (tournaments/live.py) ----------------------------------------

    async def tournament_standings(self, message: dict[str, Any]) -> None:
        await self._send_standings(message["version"])

    async def tournament_boards(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "boards", "games": message["games"]})

    async def tournament_chat(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "chat", "line": message["line"]})

    async def tournament_status(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "status", "status": message["status"]})

    async def on_notify(self, payload: dict[str, Any]) -> None:
        if payload.get("type") == "tournament_paired":
            await self.send_json({"type": "paired", "match_id": payload["match_id"]})

    # --- Commands ------------------------------------------------------------------------------

    async def handle(self, message: dict[str, Any]) -> None:
        try:
            command, entry = TOURNAMENT_COMMANDS.parse(message)
        except ProtocolError as error:
            await self.send_error(error.code, str(error), reply_to=message)
            return
        if entry.sender is Sender.SIGNED_IN and self.user is None:
            await self.send_error("login_required", _("Sign in first."), reply_to=message)
            return
        if isinstance(command, Ping):
            await self.send_json({"type": "pong", "id": echo_id(message)})
            return
        try:
            await entry.handler(self, command)
        except CommandError as error:
            await self.send_error(error.code, str(error.message), reply_to=message)
            return
        await self.send_json({"type": "ack", "id": echo_id(message)})
        if isinstance(command, Join | Withdraw | Pause):
            # The sender sees its own change at once; everyone else with the next sweep.
            opening = await in_database_thread(_opening_state)(
                self.tournament_id, self.user, self.token
            )
            if opening is not None:
                await self._send_standings(opening["version"], force=True)

    async def _join(self, command: Join) -> None:
        await in_database_thread(tournament_join)(
            user=self.user, tournament_id=self.tournament_id, token=self.token
        )

    async def _withdraw(self, command: Withdraw) -> None:
        await in_database_thread(tournament_withdraw)(
            user=self.user, tournament_id=self.tournament_id
        )

    async def _pause(self, command: Pause) -> None:
        await in_database_thread(tournament_pause)(
            user=self.user, tournament_id=self.tournament_id, pause=command.pause
        )

    async def _page(self, command: Page) -> None:
        self.page = command.page
        await self._send_standings(self.sent_version, force=True)

    async def _chat(self, command: Chat) -> None:
        await in_database_thread(tournament_chat_post)(
            user=self.user, tournament_id=self.tournament_id, text=command.text
        )

    async def _ping(self, command: Ping) -> None:
        """Answered in `handle` with a `pong`, as every socket of the site does."""


for _command, _sender, _handler in (
    (Join, Sender.SIGNED_IN, TournamentSocket._join),
    (Withdraw, Sender.SIGNED_IN, TournamentSocket._withdraw),
    (Pause, Sender.SIGNED_IN, TournamentSocket._pause),
    (Page, Sender.ANYONE, TournamentSocket._page),
    (Chat, Sender.SIGNED_IN, TournamentSocket._chat),
    (Ping, Sender.ANYONE, TournamentSocket._ping),
):
    TOURNAMENT_COMMANDS.register(_command, sender=_sender, handler=_handler)
