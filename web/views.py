"""The pages that belong to no single app: home, the rules, the health probe, a player's profile
and the preferences page (with the player's blocks)."""

from dataclasses import replace

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.appearance import appearance_of
from accounts.forms import AppearanceForm, PreferencesForm
from accounts.guests import guest_sign_in
from accounts.models import User
from analysis.selectors import player_performance
from config.db_router import replica_reads
from config.health import cached_checks
from friends.selectors import follow_summary
from games.correspondence_list import correspondence_rows
from games.match_list import MatchKey, player_match_page
from games.models import RuleSetName
from games.selectors import player_open_match
from games.services import CommandError, match_create_vs_bot
from games.strength import bot_strength_rows
from learning.models import Phase
from learning.selectors import player_statistics
from moderation.eligibility import may_challenge
from moderation.selectors import blockers_between, blocks_of
from moderation.services import can_report
from nardy import ruleset
from notifications.forms import NotificationKindsForm
from notifications.services import enabled_kinds
from ratings.records import Record, player_record, rating_deltas
from ratings.selectors import correspondence_rating_of
from tournaments.selectors import history_of as tournament_history
from web.home import QUICK_COMPUTER, home_context


@replica_reads
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", home_context(request))


@require_POST
def play_computer(request: HttpRequest) -> HttpResponse:
    """One click from the home page into a match against Bot-Beginner with the usual settings
    (docs/features.md "Playing the computer"); a visitor becomes a guest first
    (accounts/guests.py). A
    player already in a match is taken back to it."""
    if not request.user.is_authenticated and (refusal := guest_sign_in(request)):
        messages.error(request, refusal)
        return redirect("home")
    seed = request.POST.get("client_seed") or None
    try:
        match = match_create_vs_bot(user=request.user, client_seed=seed, **QUICK_COMPUTER)
    except CommandError as error:
        current = player_open_match(request.user)
        if current is not None:
            return redirect(current)
        messages.error(request, error.message)
        return redirect(reverse("play") + "#computer")
    return redirect(match)


def rules(request: HttpRequest) -> HttpResponse:
    """The rules as written for the page's language (templates/rules/<code>.html), else English."""
    language = translation.get_language()
    # The clocks' figures come from the one vocabulary (nardy/ruleset.py), the reconnect
    # window from the settings: the pages never spell a figure of their own.
    clocks = {
        "nardeon_free": ruleset.NARDEON_FREE_SECONDS,
        "nardeon_reserve_minutes": ruleset.NARDEON_RESERVE_SECONDS // 60,
        "nardeon_limit": ruleset.NARDEON_TURN_LIMIT_SECONDS,
        "omerta_step": ruleset.OMERTA_STEP_SECONDS,
        "reconnect": settings.RECONNECT_WINDOW_SECONDS,
    }
    return render(
        request,
        "rules.html",
        {
            "rules_templates": [f"rules/{language}.html", "rules/en.html"],
            "clocks": clocks,
            "bot_strength": bot_strength_rows(),  # measured, never typed (games/strength.py)
        },
    )


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 or 503 for anyone; which part fails, and why, for staff and HEALTHZ_ALLOWED_IPS."""
    results = cached_checks()
    failing = sorted(name for name, state in results.items() if state != "ok")
    body: dict[str, object] = {"status": "ok" if not failing else "failing"}
    user = request.user
    if request.META.get("REMOTE_ADDR") in settings.HEALTHZ_ALLOWED_IPS or (
        user.is_authenticated and user.is_staff
    ):
        body.update(failing=failing, checks=results)
    return JsonResponse(body, status=503 if failing else 200)


@replica_reads
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: ratings' record, games' match list, moderation's block, report and
    challenge buttons."""
    player = get_object_or_404(User, username=username, is_active=True)
    # The match list's Newer and Older links name the match they continue from (keyset paging).
    older, newer = request.GET.get("older"), request.GET.get("newer")
    try:
        if older is not None and newer is not None:
            raise ValueError("older and newer")
        older_than = MatchKey.parse(older) if older is not None else None
        newer_than = MatchKey.parse(newer) if newer is not None else None
    except ValueError:
        return HttpResponseBadRequest(_("This link to a page of the match list is not valid."))
    record = _with_rule_set_names(player_record(player, viewer=request.user))
    # The match list's tabs: every match, newest first, or the correspondence matches being
    # played, the nearest deadline first (games/correspondence_list.py).
    tab = "correspondence" if request.GET.get("tab") == "correspondence" else "all"
    correspondence = correspondence_rows(player)
    page = player_match_page(player, older_than=older_than, newer_than=newer_than)
    deltas = rating_deltas(player, [match.pk for match in page.matches])
    for match in page.matches:
        match.rating_delta = deltas.get(match.pk)
    viewer = request.user
    signed_in = viewer.is_authenticated and viewer.pk != player.pk
    blockers = blockers_between(viewer.pk, player.pk) if signed_in else set()
    followers, following = follow_summary(player.pk, viewer.pk if signed_in else None)
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "record": record,
            "page": page,
            "tab": tab,
            "correspondence_rating": correspondence_rating_of(player.pk),
            "correspondence": correspondence,
            "blocking": viewer.pk in blockers,
            "can_report": signed_in and can_report(viewer),
            "may_challenge": signed_in and may_challenge(viewer, player, blocked=bool(blockers)),
            "performance": player_performance(player),  # analysis's average PR and trend
            # learning's counters and PR chart; the computer keeps none (learning/services/
            # results.py), so its page shows no empty "Results in detail".
            "statistics": None if player.is_bot else player_statistics(player),
            "phases": Phase.choices,
            "tournaments": tournament_history(player.pk),
            # Following is one-way: the player's page shows how many follow them, not who.
            "followers": followers,
            "following": following,
            "may_follow": signed_in
            and not viewer.is_guest
            and not player.is_guest
            and not player.is_bot
            and not blockers,
        },
    )


def _with_rule_set_names(record: Record) -> Record:
    """The record's rule sets under their names in the page's language (games' vocabulary;
    ratings keeps only the stored value), as `get_rule_set_name_display` would name them."""
    names = dict(RuleSetName.choices)
    return replace(
        record,
        rule_sets=[replace(row, name=names.get(row.name, row.name)) for row in record.rule_sets],
    )


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your preferences are saved."))
        return redirect("preferences")
    return render(
        request,
        "accounts/preferences.html",
        {
            "form": form,
            "blocks": blocks_of(request.user.pk),
            "appearance_form": AppearanceForm(initial=appearance_of(request).as_dict()),
            "kinds_form": NotificationKindsForm(
                initial={"kinds": sorted(enabled_kinds(request.user.pk))}
            ),
        },
    )
