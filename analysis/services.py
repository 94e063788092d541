"""The analysis's writes: asking for one, and running it (docs/features.md, "How play works").

Only finished matches are analysed: nothing here (nor any page or socket) reaches the engine for a
match being played (docs/protocol.md, "Post-match analysis and the match export"). A match is
analysed once; asking again returns the stored row. The heavy work runs in the Celery task
`analysis.run` on the analysis queue (config/settings/celery_schedule.py CELERY_ANALYSIS_QUEUE),
never inside a
transaction: the row is claimed, the turns are analysed with progress written as it goes, and the
result is written once.

Bounds on the work (docs/security.md, "Security notes"): a person asks for at most
ANALYSIS_REQUESTS_PER_HOUR new analyses, counted under their user row's lock (accounts/locks.py),
so requests for different matches at once are counted one after another; guests ask for none. A
rated match queues its own only when it has ANALYSIS_AUTO_MIN_TURNS logged turns, and at most
ANALYSIS_AUTO_PER_HOUR of those are queued site-wide in any hour, counted under one advisory lock.
"""

from __future__ import annotations

import time
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.locks import user_row_lock
from analysis import engine, hooks
from analysis.models import AnalysisStatus, MatchAnalysis
from games.models import Match, MatchStatus
from realtime.errors import CommandError

RUN_TASK = "analysis.run"
# Progress is written at most this often (seconds): the page polls it.
PROGRESS_EVERY = 0.5
# Advisory lock class of the site-wide budget of automatic analyses (the other classes in use:
# pairing/locks.py 15_001 and 15_002, games/services/starts.py 25_001, tournaments/locks.py).
AUTOMATIC_BUDGET_LOCK_CLASS = 35_001


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
    """Ask for a finished match's analysis (the "Analyse" button). Locks the user's row, then the
    match row (a ban takes them in that order too). Returns the stored or queued row when there
    is one; otherwise counts against the user's ANALYSIS_REQUESTS_PER_HOUR and queues the task
    after commit. Guests are refused: a guest is one click away, so their requests would be
    nobody's."""
    if not user.is_authenticated:
        raise CommandError("sign_in", _("Sign in to ask for an analysis."))
    if user.is_guest:
        raise CommandError("guest", _("Guests cannot ask for an analysis: sign up to ask."))
    with transaction.atomic():
        # The count and the new row under the user's lock: two tabs asking for two matches at
        # once are counted one after the other (the match row's lock orders one match only).
        user_row_lock(user.pk)
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


def _automatic_budget_lock() -> None:
    """Until the transaction ends, the one lock under which automatic analyses are counted."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [AUTOMATIC_BUDGET_LOCK_CLASS])


def analysis_queue_finished(*, match_id: int) -> MatchAnalysis | None:
    """A rated match has just ended (games' `match_finished`, after its commit): queue its
    analysis unless it has one, it is shorter than ANALYSIS_AUTO_MIN_TURNS logged turns (a
    resignation after a few moves teaches nothing and was how farmed matches filled the queue),
    or ANALYSIS_AUTO_PER_HOUR automatic analyses were queued in the last hour. Takes the budget's
    lock, then the match row. Returns the row queued, or None."""
    with transaction.atomic():
        _automatic_budget_lock()
        match = _finished(match_id)
        if MatchAnalysis.objects.filter(match=match).exists():
            return None
        turns = engine.count_turns(match)
        if turns < settings.ANALYSIS_AUTO_MIN_TURNS:
            return None
        since = timezone.now() - timedelta(hours=1)
        # Rows asked by someone since deleted count here too: the budget errs low.
        automatic = MatchAnalysis.objects.filter(requested_by=None, requested_at__gte=since)
        if automatic.count() >= settings.ANALYSIS_AUTO_PER_HOUR:
            return None
        analysis = MatchAnalysis.objects.create(match=match, turns_total=turns)
        _schedule(match.pk)
        return analysis


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
        analysis.cube_decisions = len(report["cube_decisions"])
        analysis.cpu_seconds = time.process_time() - started
        analysis.pr_creator = totals[0]["pr"]
        analysis.pr_opponent = totals[1]["pr"]
        analysis.finished_at = timezone.now()
        analysis.save()
        requested_by_id = analysis.requested_by_id
        transaction.on_commit(
            lambda: hooks.announce_analysis_ready(match_id, requested_by_id), robust=True
        )
    return analysis
