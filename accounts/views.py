from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import PreferencesForm
from accounts.models import User


def profile(request: HttpRequest, username: str) -> HttpResponse:
    from django.core.paginator import Paginator

    from games.selectors import PlayerMatches
    from ratings.records import player_record, rating_deltas

    player = get_object_or_404(User, username=username, is_active=True)
    record = player_record(player, viewer=request.user)
    page = Paginator(PlayerMatches(player), 30).get_page(request.GET.get("page"))
    deltas = rating_deltas(player, [match.pk for match in page])
    for match in page:
        match.rating_delta = deltas.get(match.pk)
    return render(
        request, "accounts/profile.html", {"player": player, "record": record, "page": page}
    )


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your preferences are saved."))
        return redirect("preferences")
    return render(request, "accounts/preferences.html", {"form": form})
