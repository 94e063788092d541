"""The analysis's writes: asking for one, and running it (README, "How play works").

Only finished matches are analysed: nothing here (nor any page or socket) reaches the engine for a
match being played (docs/protocol.md, "Post-match analysis and the match export"). A match is
analysed once; asking again returns the stored row. The heavy work runs in the Celery task
`analysis.run` on the analysis queue (config/settings.py CELERY_ANALYSIS_QUEUE), never inside a
transaction: the row is claimed, the turns are analysed with progress written as it goes, and the
result is written once.
"""

from __future__ import annotations

import time
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis import engine
from analysis.models import AnalysisStatus, MatchAnalysis
from games.models import Match, MatchStatus
from realtime.errors import CommandError

RUN_TASK = "analysis.run"
# Progress is written at most this often (seconds): the page polls it.
PROGRESS_EVERY = 0.5


def _schedule(match_id: int) -> None:
    """The task `analysis.run` (analysis/tasks.py, which calls this module: sent by name, so no
    circle of files), after commit, on the analysis queue (CELERY_TASK_ROUTES)."""
    transaction.on_commit(lambda: current_app.send_task(RUN_TASK, args=[match_id]))


def _finished(match_id: int) -> Match:
    """The match row, locked; CommandError unless it is finished (never during play)."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.FINISHED:
        raise CommandError("not_finished", _("Only a finished match can be analysed."))
    return match


def analysis_request(*, user, match_id: int) -> MatchAnalysis:
    """Ask for a finished match's analysis (the "Analyse" button). Locks the match row first.
    Returns the stored or queued row when there is one; otherwise counts against the user's
    ANALYSIS_REQUESTS_PER_HOUR and queues the task after commit."""
    if not user.is_authenticated:
        raise CommandError("sign_in", _("Sign in to ask for an analysis."))
    with transaction.atomic():
        match = _finished(match_id)
        existing = MatchAnalysis.objects.filter(match=match).first()
        if existing is not None and existing.status != AnalysisStatus.FAILED:
            return existing
        since = timezone.now() - timedelta(hours=1)
        asked = MatchAnalysis.objects.filter(requested_by=user, requested_at__gte=since).count()
        if asked >= settings.ANALYSIS_REQUESTS_PER_HOUR:
            raise CommandError(
                "analysis_limit",
                _("You have asked for %(n)s analyses in the last hour; please wait.")
                % {"n": asked},
            )
        if existing is not None:  # a failed run: try again
            existing.delete()
        analysis = MatchAnalysis.objects.create(
            match=match, requested_by=user, turns_total=engine.count_turns(match)
        )
        _schedule(match.pk)
        return analysis


def analysis_queue_finished(*, match_id: int) -> None:
    """A rated match has just ended (games' `match_finished`, after its commit): queue its
    analysis unless it has one. Locks the match row first."""
    with transaction.atomic():
        match = _finished(match_id)
        _row, created = MatchAnalysis.objects.get_or_create(
            match=match, defaults={"turns_total": engine.count_turns(match)}
        )
        if created:
            _schedule(match.pk)


def analysis_run(*, match_id: int) -> MatchAnalysis | None:
    """The task's work: claim the row (locked), analyse every turn outside any transaction with
    progress written as it goes, then store the result once (locked again). Does nothing for a
    row already done or gone."""
    with transaction.atomic():
        analysis = MatchAnalysis.objects.select_for_update().filter(match_id=match_id).first()
        if analysis is None or analysis.status == AnalysisStatus.DONE:
            return analysis
        analysis.status = AnalysisStatus.RUNNING
        analysis.save(update_fields=["status"])
    match = Match.objects.select_related("creator", "opponent").get(pk=match_id)
    started = time.process_time()
    last = time.monotonic()

    def progress(done: int, total: int) -> None:
        nonlocal last
        if time.monotonic() - last >= PROGRESS_EVERY:
            last = time.monotonic()
            MatchAnalysis.objects.filter(match_id=match_id).update(
                turns_done=done, turns_total=total
            )

    try:
        report = engine.analyse_match(match, progress=progress)
    except Exception:
        MatchAnalysis.objects.filter(match_id=match_id).update(status=AnalysisStatus.FAILED)
        raise
    with transaction.atomic():
        analysis = MatchAnalysis.objects.select_for_update().get(match_id=match_id)
        if analysis.status == AnalysisStatus.DONE:
            return analysis  # another run stored it first: stored once
        totals = report["totals"]
        analysis.status = AnalysisStatus.DONE
        analysis.result = report
        analysis.turns_total = analysis.turns_done = len(report["turns"])
        analysis.positions = report["positions"]
        analysis.cpu_seconds = time.process_time() - started
        analysis.pr_creator = totals[0]["pr"]
        analysis.pr_opponent = totals[1]["pr"]
        analysis.finished_at = timezone.now()
        analysis.save()
    return analysis
