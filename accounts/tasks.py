"""Celery tasks of accounts: thin, they call the service (docs/architecture.md "How code is shaped
here")."""

from __future__ import annotations

from celery import shared_task

from accounts.guests import guests_delete_unused


@shared_task(name="accounts.delete_unused_guests", ignore_result=True, expires=1800)
def delete_unused_guests() -> int:
    return guests_delete_unused()
