"""How analysis answers games' hooks (games/hooks.py), filled at start-up by
`AnalysisConfig.ready()` (docs/architecture.md, "Architecture")."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse

from analysis.selectors import export_analysis
from analysis.services import analysis_queue_finished
from games import hooks as games_hooks


def replay_panel(match, request) -> str:  # noqa: ANN001
    """The replay page's analysis panel (templates/analysis/_replay_panel.html), rendered with
    the request: its form carries the CSRF token."""
    return render_to_string(
        "analysis/_replay_panel.html",
        {
            "match": match,
            # Guests see the analysis but cannot ask for one (analysis/services.py).
            "may_ask": request.user.is_authenticated and not request.user.is_guest,
            "guest": request.user.is_authenticated and request.user.is_guest,
            "state_url": reverse("analysis_state", kwargs={"match_id": match.pk}),
            "request_url": reverse("analysis_request", kwargs={"match_id": match.pk}),
        },
        request=request,
    )


def queue_rated(sender, *, match_id: int, rated: bool, **kwargs) -> None:  # noqa: ANN001
    """A rated match has ended: its analysis is queued at once (docs/features.md, "How play
    works")."""
    if rated:
        analysis_queue_finished(match_id=match_id)


def connect() -> None:
    games_hooks.replay_analysis.fill(replay_panel)
    games_hooks.export_analysis.fill(export_analysis)
    games_hooks.match_finished.connect(queue_rated, dispatch_uid="analysis.queue_rated")
