"""Pages: Play (create and accept challenges), the match page, Watch, replays and exports."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from config.db_router import replica_reads
from games import hooks, selectors, services
from games.forms import BotMatchForm, DirectChallengeForm, MatchCreateForm
from games.models import TURN_SECONDS_CHOICES, Match, MatchStatus, RuleSetName
from games.next_seed import next_seed_commitment
from games.services.challenges import challenge_decline as decline
from games.services.challenges import challenge_direct
from games.strength import bot_strength_rows
from ratings.selectors import ratings_of


def _is_guest(request: HttpRequest) -> bool:
    return request.user.is_authenticated and request.user.is_guest


def play(request: HttpRequest) -> HttpResponse:
    guest = _is_guest(request)
    context = _play_context(
        request,
        form=MatchCreateForm(guest=guest),
        bot_form=BotMatchForm(guest=guest, auto_id="bot_%s"),
    )
    return render(request, "games/play.html", context)


def _play_context(request: HttpRequest, *, form, bot_form) -> dict:
    """The Play page: both forms, the lobby (open challenges the viewer's rating may accept),
    the viewer's open match and quick-pairing state, the challenge filters."""
    lobby = selectors.lobby_state()
    user = request.user if request.user.is_authenticated else None
    if user is not None:
        rating = ratings_of([user.pk])[user.pk].value
        lobby["open"] = selectors.challenges_visible(
            lobby["open"], username=user.username, rating=rating
        )
    return {
        "form": form,
        "bot_form": bot_form,
        # Fair dice: the server seed of the viewer's next match, committed before any form is sent.
        "next_seed_hash": next_seed_commitment(user.pk) if user is not None else None,
        "lobby": lobby,
        "current": selectors.player_open_match(user) if user is not None else None,
        "pairing": hooks.play_page_pairing(user),  # pairing's
        "bot_strength": bot_strength_rows(),
        **_filter_choices(),
    }


def _filter_choices() -> dict:
    """The open challenges' filters (the engine's vocabulary, as everywhere)."""
    return {"rule_set_choices": RuleSetName.choices, "turn_seconds_choices": TURN_SECONDS_CHOICES}


@login_required
@require_POST
def match_create(request: HttpRequest) -> HttpResponse:
    guest = _is_guest(request)
    form = MatchCreateForm(request.POST, guest=guest)
    if not form.is_valid():
        return _play_again(request, form=form, bot_form=BotMatchForm(guest=guest, auto_id="bot_%s"))
    try:
        match = services.match_create(creator=request.user, **form.service_arguments())
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
    context = _play_context(request, form=form, bot_form=bot_form)
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
    match = get_object_or_404(
        Match.objects.select_related("creator", "opponent", "invited"), pk=match_id
    )
    if not selectors.may_see_match(selectors.match_parties(match), request.user):
        # A private challenge that never started, for ever (whether cancelled, declined or
        # lapsed): its other party comes through the invite link (or is the challenged player).
        raise Http404
    is_creator = request.user.is_authenticated and request.user.pk == match.creator_id
    if match.status == MatchStatus.OPEN and not is_creator:
        return render(request, "games/challenge.html", {"match": match})
    if match.status == MatchStatus.CANCELLED:
        return render(request, "games/challenge.html", {"match": match})
    invite_url = (
        request.build_absolute_uri(reverse("match_invite", kwargs={"token": match.invite_token}))
        if is_creator and match.status == MatchStatus.OPEN and match.invited_id is None
        else ""
    )
    finished = match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)
    viewer_id = request.user.pk if request.user.is_authenticated else None
    seat = match.seat_of(viewer_id)
    opponent = None if seat is None else (match.opponent if seat == 0 else match.creator)
    # Against the computer there is nobody to chat with or report (docs/features.md, "Playing the
    # computer").
    vs_bot = any(player is not None and player.is_bot for player in (match.creator, match.opponent))
    # Asked before the end too: the page stays open when the match ends (the end panel shows it).
    pool_key = hooks.match_pool_key(match) if seat is not None else ""
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
            "you_play": match.seat_of(request.user.pk) is not None,
            # The page's rule-set names (`rules_<name>` strings) come from the engine's presets.
            "rule_set_choices": RuleSetName.choices,
            **hooks.match_page_chat(),  # chat's: quick phrases, the longest message
            "follow_part": hooks.match_page_follow(match, request),  # friends' buttons
            "opponent": opponent,  # a player reports the opponent from here
            "vs_bot": vs_bot,
            # The end of a paired match: a new opponent from the same pool (pairing's).
            "new_opponent_url": (
                f"{reverse('play')}?pool={pool_key}#quick-pairing" if pool_key else ""
            ),
            "fairness": selectors.fairness_with_seed_origin(match),
            "export_url": reverse("match_export", kwargs={"match_id": match.pk}),
            "can_replace_seed": is_creator and match.status == MatchStatus.OPEN,
            # The creator's waiting view, with Cancel (templates/games/_waiting.html).
            "waiting": is_creator and match.status == MatchStatus.OPEN,
        },
    )


def match_invite(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: whoever holds it is the challenge's other party, so it shows the
    challenge, open or not, until the match starts (then the match page, like everyone's)."""
    match = get_object_or_404(Match.objects.select_related("creator"), invite_token=token)
    if match.status not in selectors.NEVER_STARTED:
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
    else:
        messages.success(request, _("Your challenge is withdrawn."))
    return redirect("play")


@login_required
@require_http_methods(["GET", "POST"])
def challenge_player(request: HttpRequest, username: str) -> HttpResponse:
    """A direct challenge from a player's profile: the Play page's settings form."""
    invited = get_object_or_404(User, username=username, is_active=True)
    form = DirectChallengeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                match = challenge_direct(
                    creator=request.user, invited=invited, **form.service_arguments()
                )
            except services.CommandError as error:
                messages.error(request, error.message)
            else:
                return redirect(match)
        status = 400
    context = {
        "form": form,
        "invited": invited,
        "next_seed_hash": next_seed_commitment(request.user.pk),
    }
    return render(request, "games/challenge_player.html", context, status=status)


@login_required
@require_POST
def challenge_decline(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        decline(user=request.user, match_id=match_id)
    except services.CommandError as error:
        messages.error(request, error.message)
    return redirect(request.POST.get("next") if _local(request.POST.get("next")) else "play")


def _local(path: str | None) -> bool:
    return bool(path) and path.startswith("/") and not path.startswith("//")


def fairness(request: HttpRequest) -> HttpResponse:
    """How the dice are rolled and verified, in the page's language (templates/fairness/)."""
    language = translation.get_language()
    templates = [f"fairness/{language}.html", "fairness/en.html"]
    return render(request, "games/fairness.html", {"fairness_templates": templates})


@replica_reads
def watch(request: HttpRequest) -> HttpResponse:
    return render(request, "games/watch.html", {"lobby": selectors.lobby_state()})


def _finished_match(match_id: int) -> Match:
    match = get_object_or_404(Match.objects.select_related("creator", "opponent"), pk=match_id)
    if match.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED):
        raise Http404  # a live match is watched, not replayed (no peeking at the log mid-game)
    return match


@require_GET
@replica_reads
def match_replay(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _finished_match(match_id)
    json_url = reverse("match_export", kwargs={"match_id": match.pk})
    viewer_id = request.user.pk if request.user.is_authenticated else None
    return render(
        request,
        "games/replay.html",
        {
            "match": match,
            "json_url": json_url,
            "chat": hooks.replay_chat(match.pk, viewer_id=viewer_id),  # chat's
            "analysis": hooks.replay_analysis(match, request),  # analysis's
            "fairness": selectors.fairness_with_seed_origin(match),
        },
    )


@require_GET
@replica_reads
def match_export(request: HttpRequest, match_id: int) -> JsonResponse:
    match = _finished_match(match_id)
    response = JsonResponse(selectors.match_export(match), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="long-nardy-match-{match.pk}.json"'
    return response
