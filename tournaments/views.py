"""The tournaments' pages: the list (with the form to create one) and a tournament's live page.
Views parse, call a service, render (docs/architecture.md "How code is shaped here")."""

from __future__ import annotations

from datetime import timedelta

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from realtime.errors import CommandError
from tournaments import selectors
from tournaments.forms import TournamentForm
from tournaments.models import Status
from tournaments.services.players import may_see, tournament_create


@require_http_methods(["GET", "POST"])
def tournament_list(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.path}")
        if form.is_valid():
            data = dict(form.cleaned_data)
            starts_at = timezone.now() + timedelta(minutes=data.pop("starts_in"))
            try:
                tournament = tournament_create(user=request.user, starts_at=starts_at, **data)
            except CommandError as error:
                form.add_error(None, str(error.message))
            else:
                url = reverse("tournament", kwargs={"tournament_id": tournament.pk})
                return redirect(f"{url}?key={tournament.token}" if tournament.private else url)
    return render(
        request, "tournaments/list.html", {"form": form, **selectors.tournament_lists(request.user)}
    )


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = selectors.tournament_for_page(tournament_id)
    token = request.GET.get("key")
    if tournament is None or not may_see(tournament, request.user, token):
        raise Http404
    rows = selectors.standings(tournament.pk)
    user_id = request.user.pk if request.user.is_authenticated else None
    player = selectors.player_of(tournament.pk, user_id)
    controls = selectors.controls(tournament, player)
    context = {
        "tournament": tournament,
        "token": token if tournament.private else "",
        "standings": selectors.standings_page(rows, page=1, user_id=user_id),
        "podium": selectors.podium(rows) if tournament.status == Status.FINISHED else [],
        "controls": controls,
        # Paused by the arena (docs/rules.md "Arena tournaments", item 5): said beside Resume.
        "absent": controls["resume"] and player is not None and player.paused_as_absent,
        "may_chat": selectors.may_chat(tournament, player),
        "over": tournament.status in selectors.OVER,
        "chat": selectors.chat_lines(tournament.pk),
        "share_url": request.build_absolute_uri(
            f"{request.path}?key={tournament.token}" if tournament.private else request.path
        ),
    }
    return render(request, "tournaments/tournament.html", context)
