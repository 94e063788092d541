"""Celery work the tournament services leave, named here: tournaments/tasks.py fills these hooks
with its tasks (config/hooks.py), so the services never import the tasks (docs/architecture.md,
"Architecture"; games/schedule.py does the same for matches)."""

from __future__ import annotations

from django.db import transaction

from config.hooks import Hook

# (tournament_id, at): start the tournament at `at` (a Celery ETA; the beat sweep is the
# fallback, tournaments/tasks.py).
start = Hook("tournaments.schedule.start")

# (tournament_id, at): finish it at `at`.
finish = Hook("tournaments.schedule.finish")


def on_commit_start(tournament) -> None:  # noqa: ANN001
    tournament_id, at = tournament.pk, tournament.starts_at
    transaction.on_commit(lambda: start(tournament_id, at))


def on_commit_finish(tournament) -> None:  # noqa: ANN001
    tournament_id, at = tournament.pk, tournament.ends_at
    transaction.on_commit(lambda: finish(tournament_id, at))
