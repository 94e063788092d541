"""Tournaments on the clock: start and finish at the scheduled second, the beat's sweep, series.

The start and the end are Celery tasks with an ETA at the very second (tournaments/tasks.py); the
beat's sweep every TOURNAMENT_SWEEP_SECONDS does whatever is overdue, so a worker killed holding
the ETA task (its tasks stay unacknowledged for the broker's visibility timeout) delays a start by
at most one sweep. Both call the same services, which do nothing when it was done already
(docs/features.md "Timed play" does the same for turn deadlines).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import MatchStatus
from tournaments import live, schedule
from tournaments.locks import lock_tournament
from tournaments.models import EVERY_STEP, Pairing, Series, Status, Tournament
from tournaments.services.pairing import tournament_match_score, tournament_pair
from tournaments.services.places import places_write

log = logging.getLogger(__name__)

# How far ahead a series' next tournament is made (it shows in the list, players join early).
SERIES_AHEAD = timedelta(days=1)


def tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Start a scheduled tournament whose time has come, and pair its players; False when it is
    not due, started already or cancelled. Locks the tournament."""
    with transaction.atomic():
        lock_tournament(tournament_id)
        now = now or timezone.now()
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Status.SCHEDULED:
            return False
        if tournament.starts_at > now:
            return False
        tournament.status = Status.RUNNING
        tournament.started_at = now
        tournament.save(update_fields=["status", "started_at"])
        schedule.on_commit_finish(tournament)
        live.changed(tournament.pk)
        live.send_on_commit(tournament.pk, {"type": "tournament.status", "status": "running"})
    tournament_pair(tournament_id=tournament_id)
    return True


def tournament_finish(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Finish a running tournament at its end: no new match from now on; matches still played
    count when they end (tournaments/services/pairing.py). Locks the tournament."""
    with transaction.atomic():
        lock_tournament(tournament_id)
        now = now or timezone.now()
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Status.RUNNING or tournament.ends_at > now:
            return False
        tournament.status = Status.FINISHED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
        places_write(tournament.pk)
        live.changed(tournament.pk)
        live.send_on_commit(tournament.pk, {"type": "tournament.status", "status": "finished"})
    return True


def series_schedule(*, now: datetime | None = None) -> int:
    """Make each active series' tournaments that start within SERIES_AHEAD; returns how many
    were made. A second run makes none (one tournament per series and start)."""
    now = now or timezone.now()
    made = 0
    for series in Series.objects.filter(active=True):
        step = EVERY_STEP[series.every]
        start = series.first_start
        if start < now:
            start += step * ((now - start) // step + 1)
        while start <= now + SERIES_AHEAD:
            made += _series_tournament(series, start)
            start += step
    return made


def _series_tournament(series: Series, starts_at: datetime) -> int:
    fields = {
        name: getattr(series, name)
        for name in ("name", "rule_set_name", "length", "time_control", "turn_seconds", "rated",
                     "minutes", "min_rating", "max_rating", "min_rated_matches", "max_players")
    }  # fmt: skip
    try:
        with transaction.atomic():
            tournament = Tournament.objects.create(
                series=series, starts_at=starts_at,
                ends_at=starts_at + timedelta(minutes=series.minutes), **fields,
            )  # fmt: skip
            schedule.on_commit_start(tournament)
    except IntegrityError:  # made already
        return 0
    return 1


def tournaments_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The beat's catch-all, every TOURNAMENT_SWEEP_SECONDS: start and finish what is due, score
    ended matches whose hook was lost, pair running tournaments, publish changed standings."""
    now = now or timezone.now()
    done = {"started": 0, "finished": 0, "scored": 0, "paired": 0}
    for tournament_id in Tournament.objects.filter(
        status=Status.SCHEDULED, starts_at__lte=now
    ).values_list("pk", flat=True):
        done["started"] += tournament_start(tournament_id=tournament_id)
    for tournament_id in Tournament.objects.filter(
        status=Status.RUNNING, ends_at__lte=now
    ).values_list("pk", flat=True):
        done["finished"] += tournament_finish(tournament_id=tournament_id)
    unscored = Pairing.objects.filter(
        scored_at__isnull=True,
        match__status__in=(MatchStatus.FINISHED, MatchStatus.ABORTED),
    ).values_list("match_id", flat=True)
    for match_id in list(unscored[:500]):
        done["scored"] += tournament_match_score(match_id=match_id) is not None
    for tournament_id in Tournament.objects.filter(
        status=Status.RUNNING, ends_at__gt=now + timedelta(minutes=1)
    ).values_list("pk", flat=True):
        done["paired"] += tournament_pair(tournament_id=tournament_id)
    live.publish_changed()
    live.publish_boards()
    return done
