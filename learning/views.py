"""The exercises' pages: the stream (with its filters), an exercise on the board, its answer
(POST, JSON), and a player's own mistakes of one match (docs/features.md, "Exercises")."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games.models import Match, RuleSetName
from learning import selectors
from learning.models import Phase
from learning.positions import ACCEPTED_LOSS
from learning.services.answers import exercise_answer, visible_exercises
from realtime.errors import CommandError

MAX_ANSWER_BYTES = 2048  # four steps of three numbers fit in a tenth of it


def _filters(request: HttpRequest) -> dict[str, str]:
    """The stream's filters; a value not offered is ignored, never an error."""
    phase = request.GET.get("phase", "")
    rule_set = request.GET.get("rules", "")
    return {
        "phase": phase if phase in Phase.values else "",
        "rules": rule_set if rule_set in RuleSetName.values else "",
    }


def _int(text: str | None) -> int:
    return int(text) if text and text.isdigit() and len(text) < 12 else 0


@require_GET
def stream(request: HttpRequest) -> HttpResponse:
    """The next public exercise for this person under the filters, or the page saying there is
    none."""
    filters = _filters(request)
    exercise = selectors.next_public(
        request.user, phase=filters["phase"], rule_set=filters["rules"],
        after=_int(request.GET.get("after")),
    )  # fmt: skip
    if exercise is not None:
        url = reverse("exercise", kwargs={"exercise_id": exercise.pk})
        query = {key: value for key, value in filters.items() if value}
        return redirect(f"{url}?{urlencode(query)}" if query else url)
    return render(request, "learning/empty.html", _stream_context(request, filters))


def _stream_context(request: HttpRequest, filters: dict[str, str]) -> dict:
    return {
        "filters": filters,
        "phases": Phase.choices,
        "rule_sets": RuleSetName.choices,
        "rating": selectors.rating_of(request.user),
    }


@require_GET
def own_mistakes(request: HttpRequest, match_id: int) -> HttpResponse:
    """The first of the viewer's own exercises from this match (signed-in players only)."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={request.path}")
    mine = selectors.own_exercises(request.user, match_id)
    if mine:
        return redirect(reverse("exercise", kwargs={"exercise_id": mine[0].pk}) + "?own=1")
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise Http404
    return render(request, "learning/empty.html", {"match": match, "own": True})


@require_GET
def exercise_page(request: HttpRequest, exercise_id: int) -> HttpResponse:
    exercise = visible_exercises(request.user).filter(pk=exercise_id).first()
    if exercise is None:
        raise Http404
    match = Match.objects.select_related("creator", "opponent").get(pk=exercise.match_id)
    own = exercise.player_id == request.user.pk
    filters = _filters(request)
    if own and request.GET.get("own"):
        mine = selectors.own_exercises(request.user, exercise.match_id)
        later = [other for other in mine if (other.game_number, other.turn_number)
                 > (exercise.game_number, exercise.turn_number)]  # fmt: skip
        next_url = (
            reverse("exercise", kwargs={"exercise_id": later[0].pk}) + "?own=1" if later else ""
        )
        position = next((n for n, other in enumerate(mine, 1) if other.pk == exercise.pk), 1)
        mode = {"own": True, "position": position, "count": len(mine)}
    else:
        query = {key: value for key, value in filters.items() if value}
        next_url = f"{reverse('exercise_stream')}?{urlencode({**query, 'after': exercise.pk})}"
        mode = {"own": False}
    data = {
        "board": exercise.board, "side": exercise.side, "dice": exercise.dice,
        "sequences": selectors.legal_sequences(exercise, match.rules),
        "answer_url": reverse("exercise_answer", kwargs={"exercise_id": exercise.pk}),
        "next_url": next_url, "threshold": ACCEPTED_LOSS,
    }  # fmt: skip
    context = {
        **_stream_context(request, filters), **mode, "exercise": exercise, "match": match,
        "data": data, "origin_known": own,
    }  # fmt: skip
    return render(request, "learning/exercise.html", context)


@require_POST
def answer(request: HttpRequest, exercise_id: int) -> JsonResponse:
    """{"steps": [[from, to, die], ...]} -> the judgement, the best turn and, once answered, the
    position's origin."""
    if len(request.body) > MAX_ANSWER_BYTES:
        return JsonResponse({"error": "too_large"}, status=413)
    try:
        payload = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return JsonResponse({"error": "bad_answer"}, status=400)
    steps = payload.get("steps") if isinstance(payload, dict) else None
    try:
        judgement = exercise_answer(user=request.user, exercise_id=exercise_id, steps=steps)
    except CommandError as error:
        status = 404 if error.code == "not_found" else 400
        return JsonResponse({"error": error.code, "message": error.message}, status=status)
    exercise = (
        visible_exercises(request.user)
        .select_related("match__creator", "match__opponent")
        .get(pk=exercise_id)
    )
    match = exercise.match
    return JsonResponse({
        "correct": judgement.correct, "equity": judgement.equity, "best": judgement.best,
        "loss": judgement.loss, "depth": judgement.depth, "stored": judgement.stored,
        "repeated": judgement.repeated, "rating": judgement.rating,
        "best_steps": exercise.best_steps,
        "origin": {
            "replay": reverse("match_replay", kwargs={"match_id": match.pk}),
            "players": [match.creator.username, match.opponent.username if match.opponent else ""],
            "game": exercise.game_number, "turn": exercise.turn_number,
        },
    })  # fmt: skip
