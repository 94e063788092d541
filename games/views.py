"""Pages: Play (create and accept challenges), the match page, Watch, replays and exports."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_GET, require_POST

from games import selectors, services
from games.forms import MatchCreateForm
from games.models import Match, MatchStatus, RuleSetName
from games.protocol import fairness_state


def play(request: HttpRequest) -> HttpResponse:
    form = MatchCreateForm()
    context = {
        "form": form,
        "lobby": selectors.lobby_state(),
        "current": selectors.player_open_match(request.user)
        if request.user.is_authenticated
        else None,
    }
    return render(request, "games/play.html", context)


@login_required
@require_POST
def match_create(request: HttpRequest) -> HttpResponse:
    form = MatchCreateForm(request.POST)
    if not form.is_valid():
        lobby = selectors.lobby_state()
        return render(request, "games/play.html", {"form": form, "lobby": lobby}, status=400)
    data = form.cleaned_data
    try:
        match = services.match_create(
            creator=request.user,
            rule_set_name=data["rule_set_name"],
            length=data["length"],
            turn_seconds=data["turn_seconds"] or None,
            reserve_seconds=data["reserve_seconds"],
            rated=data["rated"],
            private=data["private"],
            head_exception=data["head_exception"],
            opening=data["opening"],
            client_seed=data["client_seed"],
        )
    except services.CommandError as error:
        messages.error(request, error.message)
        return redirect("play")
    return redirect(match)


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("creator", "opponent"), pk=match_id)
    is_creator = request.user.is_authenticated and request.user.pk == match.creator_id
    if match.status == MatchStatus.OPEN and not is_creator:
        if match.private:
            raise Http404  # only the invite link shows a private challenge
        return render(request, "games/challenge.html", {"match": match})
    if match.status == MatchStatus.CANCELLED:
        return render(request, "games/challenge.html", {"match": match})
    invite_url = (
        request.build_absolute_uri(reverse("match_invite", kwargs={"token": match.invite_token}))
        if is_creator and match.status == MatchStatus.OPEN
        else ""
    )
    finished = match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)
    return render(
        request,
        "games/match.html",
        {
            "match": match,
            "ws_path": f"/ws/matches/{match.pk}/",
            "replay_url": reverse("match_replay", kwargs={"match_id": match.pk})
            if finished
            else "",
            "invite_url": invite_url,
            # The page's rule-set names (`rules_<name>` strings) come from the engine's presets.
            "rule_set_choices": RuleSetName.choices,
            "fairness": fairness_state(match),
            "export_url": reverse("match_export", kwargs={"match_id": match.pk}),
            "can_replace_seed": is_creator and match.status == MatchStatus.OPEN,
        },
    )


def match_invite(request: HttpRequest, token: str) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("creator"), invite_token=token)
    if match.status != MatchStatus.OPEN:
        return redirect(match)
    return render(request, "games/challenge.html", {"match": match, "token": token})


@login_required
@require_POST
def match_accept(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = services.match_accept(
            user=request.user,
            match_id=match_id,
            token=request.POST.get("token") or None,
            # The browser's client seed (games/fairness); the service refuses a malformed one.
            client_seed=request.POST.get("client_seed") or None,
        )
    except services.CommandError as error:
        messages.error(request, error.message)
        return redirect("play")
    return redirect(match)


@login_required
@require_POST
def match_cancel(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        services.match_cancel(user=request.user, match_id=match_id)
    except services.CommandError as error:
        messages.error(request, error.message)
    return redirect("play")


def fairness(request: HttpRequest) -> HttpResponse:
    """How the dice are rolled and verified, in the page's language (templates/fairness/)."""
    language = translation.get_language()
    templates = [f"fairness/{language}.html", "fairness/en.html"]
    return render(request, "games/fairness.html", {"fairness_templates": templates})


def watch(request: HttpRequest) -> HttpResponse:
    return render(request, "games/watch.html", {"lobby": selectors.lobby_state()})


def _finished_match(match_id: int) -> Match:
    match = get_object_or_404(Match.objects.select_related("creator", "opponent"), pk=match_id)
    if match.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED):
        raise Http404  # a live match is watched, not replayed (no peeking at the log mid-game)
    return match


@require_GET
def match_replay(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _finished_match(match_id)
    json_url = reverse("match_export", kwargs={"match_id": match.pk})
    return render(
        request,
        "games/replay.html",
        {"match": match, "json_url": json_url, "fairness": fairness_state(match)},
    )


@require_GET
def match_export(request: HttpRequest, match_id: int) -> JsonResponse:
    match = _finished_match(match_id)
    response = JsonResponse(selectors.match_export(match), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="long-nardy-match-{match.pk}.json"'
    return response
