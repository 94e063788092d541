"""A lobby socket's part in quick pairing (docs/protocol.md "Quick pairing").

`PoolSeat` runs the pool commands of one `/ws/lobby/` socket through the services, forwards the
user's pairing notifications (sent to every socket of the user after commit) and, while its
player waits, keeps the wait alive (pairing/liveness.py) and tells the player the pool's size,
the time waited and the current window every REFRESH_SECONDS. A page that comes back (a reload,
a reconnect to another Daphne process after a restart) finds its wait in PostgreSQL and resumes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from channels.db import DatabaseSyncToAsync
from django.db import OperationalError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.lobby_socket import LOBBY_COMMANDS, LOBBY_PARTS
from games.next_seed import next_seed_commitment
from pairing import liveness, selectors, services
from pairing.locks import rolled_back
from pairing.pools import Pool, PoolKeyError
from realtime import socket_limits
from realtime.commands import Command, Entry, ProtocolError, Sender, wire
from realtime.errors import CommandError
from realtime.socket import echo_id

log = logging.getLogger(__name__)

# What a lobby socket forwards of the user's notifications (`next_seed`: the Play page's
# commitment to the next server seed, after any use of the last one), and what ends its wait.
POOL_NOTIFICATIONS = frozenset(
    {
        "pool_matched",
        "pool_left",
        "pool_requeued",
        "pool_proposal",
        "pool_opponent_accepted",
        "next_seed",
    }
)
WAIT_ENDS = frozenset({"pool_matched", "pool_left"})


def _pool_from_wire(value: object) -> Pool:
    try:
        return Pool.from_key(value)
    except PoolKeyError:
        raise ProtocolError("bad_field", _("There is no such pool.")) from None


def _proposal_from_wire(value: object) -> int:
    if type(value) is not int or not 0 < value < 2**63:
        raise ProtocolError("bad_field", _("proposal must be a positive integer."))
    return value


def as_sent(value: object) -> object:
    return value  # checked by pairing/services.py `pool_join` (its own refusals)


@dataclass(frozen=True, kw_only=True)
class PoolJoin(Command):
    type: ClassVar[str] = "pool_join"
    pool: Pool = wire(_pool_from_wire)
    client_seed: str | None = wire(as_sent, optional=True)
    server_seed_hash: str | None = wire(as_sent, optional=True)


@dataclass(frozen=True, kw_only=True)
class PoolLeave(Command):
    type: ClassVar[str] = "pool_leave"


@dataclass(frozen=True, kw_only=True)
class PoolAccept(Command):
    type: ClassVar[str] = "pool_accept"
    proposal: int = wire(_proposal_from_wire)


@dataclass(frozen=True, kw_only=True)
class PoolDecline(Command):
    type: ClassVar[str] = "pool_decline"
    proposal: int = wire(_proposal_from_wire)


def _database(function):
    return DatabaseSyncToAsync(function, thread_sensitive=False)


def _status(user_id: int) -> dict[str, Any] | None:
    entry = selectors.player_wait(user_id)
    return services.status_payload(entry, timezone.now()) if entry is not None else None


def _join(user, pool: Pool, client_seed: object, server_seed_hash: object) -> dict[str, Any]:
    services.pool_join(
        user=user,
        pool=pool,
        client_seed=client_seed,  # type: ignore[arg-type]
        server_seed_hash=server_seed_hash,  # type: ignore[arg-type]
    )
    status = _status(user.pk)
    # Paired at once: the `pool_matched` notification is on its way; no wait to report.
    return status or {"type": "pool_paired_at_once"}


async def pools_message() -> dict[str, Any]:
    return {
        "type": "pools",
        "counts": await liveness.read_counts(),
        "online": await socket_limits.online_users(),
    }


class PoolSeat:
    def __init__(self, socket) -> None:
        self.socket = socket
        self.waiting = False
        self._task: asyncio.Task | None = None

    @property
    def user(self):
        return self.socket.user

    # --- Socket life -----------------------------------------------------------------------------

    async def opened(self) -> None:
        await self.socket.send_json(await pools_message())
        if self.user is not None:
            status = await _database(_status)(self.user.pk)
            if status is not None:
                await self._start_waiting(status)

    async def closed(self) -> None:
        self.waiting = False
        if self._task is not None:
            self._task.cancel()

    # --- Commands --------------------------------------------------------------------------------

    async def command(
        self, run: Callable[..., Awaitable[None]], entry: Entry, message: dict[str, Any]
    ) -> None:
        """A registered pool command (the lobby socket checked the sender is signed in); a
        refusal goes back to the sender only and changes nothing."""
        try:
            await run(self, entry.command.from_wire(message), message)
        except ProtocolError as error:
            await self.socket.send_error(error.code, str(error), reply_to=message)
        except CommandError as error:
            await self.socket.send_error(error.code, error.message, reply_to=message)
        except OperationalError as error:
            if not rolled_back(error):
                raise  # the database out of reach: the site socket reports `unavailable`
            await self.socket.send_error(
                "busy",
                _("The pairing was busy with the same players; nothing was changed. Try again."),
                reply_to=message,
            )

    async def _join_command(self, command: PoolJoin, message: dict[str, Any]) -> None:
        try:
            status = await _database(_join)(
                self.user, command.pool, command.client_seed, command.server_seed_hash
            )
        except CommandError as error:
            if error.code == "seed_changed":  # this page showed an old commitment: the new one
                await self.socket.send_error(error.code, error.message, reply_to=message)
                await self._send_next_seed()
                return
            raise
        await self._ack(message)
        if status["type"] == "pool_waiting":
            await self._start_waiting(status)

    async def _leave_command(self, command: PoolLeave, message: dict[str, Any]) -> None:
        await _database(services.pool_leave)(user=self.user)
        await self._ack(message)

    async def _accept_command(self, command: PoolAccept, message: dict[str, Any]) -> None:
        await self._answer(command.proposal, message, accept=True)

    async def _decline_command(self, command: PoolDecline, message: dict[str, Any]) -> None:
        await self._answer(command.proposal, message, accept=False)

    async def _answer(self, proposal: int, message: dict[str, Any], *, accept: bool) -> None:
        await _database(services.proposal_answer)(
            user=self.user, proposal_id=proposal, accept=accept
        )
        await self._ack(message)

    async def _send_next_seed(self) -> None:
        seed_hash = await _database(next_seed_commitment)(self.user.pk)
        if seed_hash is not None:
            await self.socket.send_json({"type": "next_seed", "server_seed_hash": seed_hash})

    async def _ack(self, message: dict[str, Any]) -> None:
        await self.socket.send_json({"type": "ack", "id": echo_id(message)})

    # --- Notifications and the wait --------------------------------------------------------------

    async def pool_counts(self, message: dict[str, Any]) -> None:
        """The pools' sizes changed (pairing/services.py, to the lobby group)."""
        await self.socket.send_json(await pools_message())

    async def notified(self, payload: dict[str, Any]) -> None:
        if payload.get("type") not in POOL_NOTIFICATIONS:
            return
        if payload["type"] in WAIT_ENDS:
            await self.closed()
        await self.socket.send_json(payload)

    async def _start_waiting(self, status: dict[str, Any]) -> None:
        await self.socket.send_json({**status, "size": await self._size(status["pool"])})
        self.waiting = True
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._keep_waiting())

    async def _size(self, key: str) -> int:
        return (await liveness.read_counts()).get(key, 1)

    async def _keep_waiting(self) -> None:
        user_id = self.user.pk
        with contextlib.suppress(asyncio.CancelledError):
            while self.waiting:
                try:
                    await liveness.mark_alive([user_id])
                    status = await _database(_status)(user_id)
                    if status is None:  # paired or taken out meanwhile; its notice says which
                        self.waiting = False
                        break
                    await self.socket.send_json(
                        {**status, "size": await self._size(status["pool"])}
                    )
                except Exception:  # noqa: BLE001 - Redis or the database away: try next period
                    log.exception("keeping the wait of user %s alive failed", user_id)
                await asyncio.sleep(liveness.REFRESH_SECONDS)


def _on_the_seat(run: Callable[..., Awaitable[None]]):
    """A lobby socket's handler that runs `run` on the socket's `PoolSeat`."""

    async def handler(socket, entry: Entry, message: dict[str, Any]) -> None:
        seat = next(part for part in socket.parts if isinstance(part, PoolSeat))
        await seat.command(run, entry, message)

    return handler


# Quick pairing on the lobby socket (docs/protocol.md "Quick pairing"), for signed-in users.
LOBBY_PARTS.append(PoolSeat)
for _command, _run in (
    (PoolJoin, PoolSeat._join_command),
    (PoolLeave, PoolSeat._leave_command),
    (PoolAccept, PoolSeat._accept_command),
    (PoolDecline, PoolSeat._decline_command),
):
    LOBBY_COMMANDS.register(
        _command,
        sender=Sender.SIGNED_IN,
        handler=_on_the_seat(_run),
        login_message=gettext_lazy("Log in to look for an opponent."),
    )
