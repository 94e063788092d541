"""Celery work of notifications: thin, it calls notifications/arenas.py.

- `announce_arenas`: beat, every ARENA_NOTICE_SWEEP_SECONDS: the players of every arena starting
  within the minute are told (once each: the notification's dedupe key).
"""

from __future__ import annotations

from celery import shared_task

from notifications.arenas import arenas_starting_announce


@shared_task(name="notifications.announce_arenas", ignore_result=True, expires=10)
def announce_arenas() -> int:
    return arenas_starting_announce()
