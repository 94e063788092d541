"""The analysis's Celery task, on its own low-priority queue (config/settings/
CELERY_ANALYSIS_QUEUE): thin, it calls the service."""

from celery import shared_task

from analysis.services import RUN_TASK, analysis_run


@shared_task(name=RUN_TASK)
def analysis_run_task(match_id: int) -> None:
    analysis_run(match_id=match_id)
