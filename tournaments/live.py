"""Live standings, coalesced: a change of a tournament's standings bumps its version and marks it
in a Redis set after commit; the beat's sweep (every TOURNAMENT_SWEEP_SECONDS, one second) sends
each marked tournament's sockets one `tournament.standings` message with the new version, however
many matches ended meanwhile. Each Daphne process then reads the standings once per version
(tournaments/selectors.py `standings_snapshot`) and every socket sends its viewer's page and own
row: never a message per event per player (docs/protocol.md, "Tournament socket")."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.db.models import F

from config.redis_client import sync_client
from tournaments.models import Status, Tournament
from tournaments.selectors import top_boards

# At most one standings message per tournament in this time (docs/protocol.md).
PUBLISH_INTERVAL_MS = 1000


def group_name(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def _dirty_key() -> str:
    return f"{settings.REDIS_PREFIX}:tournaments:changed"


def changed(tournament_id: int) -> None:
    """The standings (or the players' states) of this tournament changed: a new version now,
    published by the next sweep after commit."""
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    transaction.on_commit(lambda: sync_client().sadd(_dirty_key(), tournament_id))


def changed_after_commit(tournament_ids: list[int]) -> None:
    """`changed` for these tournaments once the transaction has committed, each in a short
    transaction of its own: for a writer that holds a tournament's Player rows without its lock
    (a ban), which must not wait for the tournament's row while holding them."""

    def bump() -> None:
        for tournament_id in sorted(set(tournament_ids)):
            with transaction.atomic():
                changed(tournament_id)

    transaction.on_commit(bump)


def publish_changed() -> list[int]:
    """One message per changed tournament since the last call (the sweep, once a second), and
    never two for one tournament within PUBLISH_INTERVAL_MS, however the sweeps bunch up (a busy
    worker runs two queued sweeps back to back): a change left waiting goes with the next."""
    client = sync_client()
    with client.pipeline() as pipe:
        pipe.smembers(_dirty_key())
        pipe.delete(_dirty_key())
        members, _deleted = pipe.execute()
    ids = sorted(int(member) for member in members)
    due = [
        tournament_id
        for tournament_id in ids
        if client.set(f"{_dirty_key()}:sent:{tournament_id}", 1, nx=True, px=PUBLISH_INTERVAL_MS)
    ]
    if later := set(ids) - set(due):
        client.sadd(_dirty_key(), *later)
    if not due:
        return []
    versions = dict(Tournament.objects.filter(pk__in=due).values_list("pk", "version"))
    for tournament_id, version in versions.items():
        send(tournament_id, {"type": "tournament.standings", "version": version})
    return due


def publish_boards() -> int:
    """The top games' boards of every running tournament, once a second from the sweep: the
    small live boards of the tournament page."""
    running = Tournament.objects.filter(status=Status.RUNNING).values_list("pk", flat=True)
    sent = 0
    for tournament_id in running:
        games = top_boards(tournament_id)
        if games:
            send(tournament_id, {"type": "tournament.boards", "games": games})
            sent += 1
    return sent


def send(tournament_id: int, message: dict[str, Any]) -> None:
    async_to_sync(get_channel_layer().group_send)(group_name(tournament_id), message)


def send_on_commit(tournament_id: int, message: dict[str, Any]) -> None:
    transaction.on_commit(lambda: send(tournament_id, message))
