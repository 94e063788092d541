from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import PreferencesForm
from accounts.language import supported_language
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
    from pairing.hooks import is_guest

    viewer = request.user
    may_challenge = viewer.is_authenticated and viewer.pk != player.pk and not is_guest(viewer)
    context = {"player": player, "record": record, "page": page, "may_challenge": may_challenge}
    return render(request, "accounts/profile.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your preferences are saved."))
        return redirect("preferences")
    return render(request, "accounts/preferences.html", {"form": form})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's selector view (cookie, redirect back), and the choice saved on a signed-in user.

    A language the site does not offer changes nothing (Django's view would set the cookie for any
    language Django itself has a catalog for)."""
    language = supported_language(request.POST.get("language"))
    if language is None or language != request.POST.get("language"):
        return redirect(request.POST.get("next") if _safe_next(request) else "/")
    response = i18n.set_language(request)
    user = request.user
    if user.is_authenticated and user.language != language:
        User.objects.filter(pk=user.pk).update(language=language)
    return response


def _safe_next(request: HttpRequest) -> bool:
    return url_has_allowed_host_and_scheme(
        request.POST.get("next"),
        allowed_hosts={request.get_host()},
        require_https=request.is_secure(),
    )
