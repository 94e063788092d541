"""The analysis's two URLs: ask for it (POST) and read its state (GET, polled for progress).
Both answer only for finished matches: during play the engine is not reachable."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET, require_POST

from analysis.selectors import analysis_state
from analysis.services import analysis_request
from games.models import Match, MatchStatus
from realtime.errors import CommandError


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_POST
def request_analysis(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        analysis_request(user=request.user, match_id=match_id)
    except CommandError as error:
        if error.code == "not_finished":
            raise Http404 from None
        if _wants_json(request):
            status = 429 if error.code == "analysis_limit" else 403
            return JsonResponse({"error": error.code, "message": error.message}, status=status)
        messages.error(request, error.message)
    if _wants_json(request):
        return JsonResponse(analysis_state(match_id))
    return redirect("match_replay", match_id=match_id)


@require_GET
def state(request: HttpRequest, match_id: int) -> JsonResponse:
    if not Match.objects.filter(pk=match_id, status=MatchStatus.FINISHED).exists():
        raise Http404
    response = JsonResponse(analysis_state(match_id))
    response["Cache-Control"] = "no-store"
    return response
