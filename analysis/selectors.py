"""The analysis's reads: its state for the replay page (polled for progress), its part of the
match export, and a player's performance rating over recent analysed matches."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from analysis.models import AnalysisStatus, MatchAnalysis

RECENT_MATCHES = 20  # the profile's average covers this many analysed matches


def queue_position(analysis: MatchAnalysis) -> int:
    """1 for the queued analysis the worker takes next: the queue runs in the order asked
    (the tasks are sent at each request's commit). Counted on the queued rows' own index."""
    ahead = MatchAnalysis.objects.filter(status=AnalysisStatus.QUEUED).filter(
        Q(requested_at__lt=analysis.requested_at)
        | Q(requested_at=analysis.requested_at, match_id__lt=analysis.match_id)
    )
    return ahead.count() + 1


def analysis_state(match_id: int) -> dict[str, Any]:
    """What the replay's panel shows: status, per cent done, the place in the queue while it
    waits and, once done, the report."""
    analysis = MatchAnalysis.objects.filter(match_id=match_id).first()
    if analysis is None:
        return {"status": "none", "percent": 0}
    state: dict[str, Any] = {"status": analysis.status, "percent": analysis.percent}
    if analysis.status == AnalysisStatus.QUEUED:
        state["position"] = queue_position(analysis)
    if analysis.status == AnalysisStatus.DONE:
        state["result"] = analysis.result
    return state


def export_analysis(match_id: int) -> dict[str, Any] | None:
    """The export's `analysis` (docs/protocol.md, "Post-match analysis and the match export"):
    per turn the equity played, the best, the loss and the mark, and each seat's totals; None
    until it is stored."""
    analysis = (
        MatchAnalysis.objects.filter(match_id=match_id, status=AnalysisStatus.DONE)
        .only("result")
        .first()
    )
    if analysis is None:
        return None
    report = analysis.result
    keys = ("game", "number", "side", "played", "best", "loss", "mark")
    return {
        "depth": report["depth"],
        "cube": report["cube"],
        "thresholds": report["thresholds"],
        "turns": [{key: turn[key] for key in keys} for turn in report["turns"]],
        "totals": report["totals"],
    }


def player_performance(user) -> dict[str, Any] | None:
    """The player's average performance rating over their last RECENT_MATCHES analysed matches
    and its trend (the newer half's average less the older half's: negative is better)."""
    rows = list(
        MatchAnalysis.objects.filter(status=AnalysisStatus.DONE)
        .filter(
            Q(match__creator=user, pr_creator__isnull=False)
            | Q(match__opponent=user, pr_opponent__isnull=False)
        )
        .order_by("-match__finished_at", "-match_id")
        .values_list("match__creator_id", "pr_creator", "pr_opponent")[:RECENT_MATCHES]
    )
    if not rows:
        return None
    ratings = [mine if creator == user.pk else theirs for creator, mine, theirs in rows]
    half = len(ratings) // 2
    trend = None
    if half:
        newer, older = ratings[:half], ratings[-half:]
        trend = round(sum(newer) / half - sum(older) / half, 1)
    # The page shows the trend as an arrow and its size (the arrow is the sign; "↓ -12.0" said it
    # twice, with a hyphen for a minus).
    return {"average": round(sum(ratings) / len(ratings), 1), "matches": len(ratings),
            "trend": trend, "trend_size": None if trend is None else abs(trend)}  # fmt: skip
