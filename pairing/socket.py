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
from typing import Any

from channels.db import DatabaseSyncToAsync
from django.db import OperationalError
from django.utils import timezone
from django.utils.translation import gettext as _

from games.next_seed import next_seed_commitment
from pairing import liveness, selectors, services
from pairing.locks import rolled_back
from pairing.pools import Pool, PoolKeyError
from realtime import socket_limits
from realtime.errors import CommandError

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

    async def command(self, message: dict[str, Any]) -> None:
        """One of `COMMANDS`; a refusal goes back to the sender only and changes nothing."""
        if self.user is None:
            await self.socket.send_error(
                "login_required", _("Log in to look for an opponent."), reply_to=message
            )
            return
        try:
            await COMMANDS[message["type"]](self, message)
        except PoolKeyError:
            await self.socket.send_error("bad_field", _("There is no such pool."), reply_to=message)
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

    async def _join_command(self, message: dict[str, Any]) -> None:
        pool = Pool.from_key(message.get("pool"))
        try:
            status = await _database(_join)(
                self.user, pool, message.get("client_seed"), message.get("server_seed_hash")
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

    async def _leave_command(self, message: dict[str, Any]) -> None:
        await _database(services.pool_leave)(user=self.user)
        await self._ack(message)

    async def _answer(self, message: dict[str, Any], accept: bool) -> None:
        proposal = message.get("proposal")
        if type(proposal) is not int or not 0 < proposal < 2**63:
            await self.socket.send_error(
                "bad_field", _("proposal must be a positive integer."), reply_to=message
            )
            return
        await _database(services.proposal_answer)(
            user=self.user, proposal_id=proposal, accept=accept
        )
        await self._ack(message)

    async def _accept_command(self, message: dict[str, Any]) -> None:
        await self._answer(message, True)

    async def _decline_command(self, message: dict[str, Any]) -> None:
        await self._answer(message, False)

    async def _send_next_seed(self) -> None:
        seed_hash = await _database(next_seed_commitment)(self.user.pk)
        if seed_hash is not None:
            await self.socket.send_json({"type": "next_seed", "server_seed_hash": seed_hash})

    async def _ack(self, message: dict[str, Any]) -> None:
        from realtime.socket import echo_id

        await self.socket.send_json({"type": "ack", "id": echo_id(message)})

    # --- Notifications and the wait --------------------------------------------------------------

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


COMMANDS = {
    "pool_join": PoolSeat._join_command,
    "pool_leave": PoolSeat._leave_command,
    "pool_accept": PoolSeat._accept_command,
    "pool_decline": PoolSeat._decline_command,
}
