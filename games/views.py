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
from games.forms import BotMatchForm, MatchCreateForm
from games.models import Match, MatchStatus, RuleSetName
from games.protocol import fairness_state


def _is_guest(request: HttpRequest) -> bool:
    return request.user.is_authenticated and request.user.is_guest


def play(request: HttpRequest) -> HttpResponse:
    guest = _is_guest(request)
    context = {
        "form": MatchCreateForm(guest=guest),
        "bot_form": BotMatchForm(guest=guest, auto_id="bot_%s"),
        "lobby": selectors.lobby_state(),
        "current": selectors.player_open_match(request.user)
        if request.user.is_authenticated
        else None,
    }
    return render(request, "games/play.html", context)


@login_required
@require_POST
def match_create(request: HttpRequest) -> HttpResponse:
    guest = _is_guest(request)
    form = MatchCreateForm(request.POST, guest=guest)
    if not form.is_valid():
        return _play_again(request, form=form, bot_form=BotMatchForm(guest=guest, auto_id="bot_%s"))
    data = form.cleaned_data
    try:
        match = services.match_create(
            creator=request.user,
            reserve_seconds=data["reserve_seconds"],
            private=data.get("private", False),  # a guest's form has no such field
            single_die=data["single_die"],
            block_release=data["block_release"],
            game_starter=data["game_starter"],
            doubling_cube=data["doubling_cube"],
            cube_raise=data["cube_raise"],
            crawford=data["crawford"],
            client_seed=data["client_seed"],
            **_match_settings(data),
        )
    except services.CommandError as error:
        messages.error(request, error.message)
        return redirect("play")
    return redirect(match)


def _match_settings(data: dict) -> dict:
    """The settings both forms share, as the services take them (a guest's form has no
    `rated` field: casual)."""
    return {
        "rule_set_name": data["rule_set_name"],
        "length": data["length"],
        "turn_seconds": data["turn_seconds"] or None,
        "rated": data.get("rated", False),
        "head_exception": data["head_exception"],
        "opening": data["opening"],
    }


def _play_again(request: HttpRequest, *, form, bot_form) -> HttpResponse:
    """The Play page with a form's errors (400)."""
    context = {"form": form, "bot_form": bot_form, "lobby": selectors.lobby_state()}
    return render(request, "games/play.html", context, status=400)


@login_required
@require_POST
def match_create_vs_bot(request: HttpRequest) -> HttpResponse:
    """Play the computer: the match starts at once (games/services/bots.py)."""
    guest = _is_guest(request)
    form = BotMatchForm(request.POST, guest=guest, auto_id="bot_%s")
    if not form.is_valid():
        return _play_again(request, form=MatchCreateForm(guest=guest), bot_form=form)
    data = form.cleaned_data
    try:
        match = services.match_create_vs_bot(
            user=request.user,
            level=data["level"],
            client_seed=data["client_seed"],
            **_match_settings(data),
        )
    except services.CommandError as error:
        messages.error(request, error.message)
        return redirect(reverse("play") + "#computer")
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
    from chat.models import MAX_CHAT_LENGTH, QuickPhrase

    viewer_id = request.user.pk if request.user.is_authenticated else None
    seat = match.seat_of(viewer_id)
    opponent = None if seat is None else (match.opponent if seat == 0 else match.creator)
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
            "quick_phrases": QuickPhrase.choices,
            "chat_max_length": MAX_CHAT_LENGTH,
            "opponent": opponent,  # a player reports the opponent from here
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
    from chat.selectors import match_chat

    viewer_id = request.user.pk if request.user.is_authenticated else None
    return render(
        request,
        "games/replay.html",
        {
            "match": match,
            "json_url": json_url,
            "chat": match_chat(match.pk, viewer_id=viewer_id),
            "fairness": fairness_state(match),
        },
    )


@require_GET
def match_export(request: HttpRequest, match_id: int) -> JsonResponse:
    match = _finished_match(match_id)
    response = JsonResponse(selectors.match_export(match), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="long-nardy-match-{match.pk}.json"'
    return response
