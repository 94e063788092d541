"""How analysis answers games' hooks (games/hooks.py), filled at start-up by
`AnalysisConfig.ready()` (README, "Architecture")."""

from __future__ import annotations

from analysis.selectors import export_analysis
from analysis.services import analysis_queue_finished
from games import hooks as games_hooks


def queue_rated(sender, *, match_id: int, rated: bool, **kwargs) -> None:  # noqa: ANN001
    """A rated match has ended: its analysis is queued at once (README, "How play works")."""
    if rated:
        analysis_queue_finished(match_id=match_id)


def connect() -> None:
    games_hooks.export_analysis.fill(export_analysis)
    games_hooks.match_finished.connect(queue_rated, dispatch_uid="analysis.queue_rated")
