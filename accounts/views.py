from allauth.account.views import LoginView, SignupView
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import PreferencesForm
from accounts.models import User
from realtime.language import supported_language


def profile(request: HttpRequest, username: str) -> HttpResponse:
    from games.selectors import MatchKey, player_match_page
    from moderation.eligibility import may_challenge
    from moderation.selectors import blockers_between
    from moderation.services import can_report
    from ratings.records import player_record, rating_deltas

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
    record = player_record(player, viewer=request.user)
    page = player_match_page(player, older_than=older_than, newer_than=newer_than)
    deltas = rating_deltas(player, [match.pk for match in page.matches])
    for match in page.matches:
        match.rating_delta = deltas.get(match.pk)
    viewer = request.user
    signed_in = viewer.is_authenticated and viewer.pk != player.pk
    blockers = blockers_between(viewer.pk, player.pk) if signed_in else set()
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "record": record,
            "page": page,
            "blocking": viewer.pk in blockers,
            "can_report": signed_in and can_report(viewer),
            "may_challenge": signed_in and may_challenge(viewer, player, blocked=bool(blockers)),
        },
    )


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """ "Play now" without an account: a guest identity in the session (accounts/guests.py),
    then the Play page, where the computer waits."""
    from accounts.guests import GuestRefused, guest_create

    if not request.user.is_authenticated:
        try:
            guest = guest_create(address=request.META.get("REMOTE_ADDR"))
        except GuestRefused as refusal:
            messages.error(request, str(refusal))
            return redirect("home")
        login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(reverse("play") + "#computer")


class GuestMayEnter:
    """A signed-in visitor is sent away from the login and sign-up pages, except a guest:
    signing up keeps its games (accounts/adapters.py), logging in leaves the guest session.
    (allauth's own redirect, ACCOUNT_AUTHENTICATED_LOGIN_REDIRECTS, is off for this.)"""

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not request.user.is_guest:
            return redirect(self.get_authenticated_redirect_url())
        return super().dispatch(request, *args, **kwargs)


class GuestSignupView(GuestMayEnter, SignupView):
    pass


class GuestLoginView(GuestMayEnter, LoginView):
    pass


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your preferences are saved."))
        return redirect("preferences")
    from moderation.selectors import blocks_of

    return render(
        request,
        "accounts/preferences.html",
        {"form": form, "blocks": blocks_of(request.user.pk)},
    )


@login_required
@require_POST
def sounds(request: HttpRequest) -> HttpResponse:
    """The match page's mute toggle, remembered on the account: `muted` is 1 or 0."""
    muted = request.POST.get("muted")
    if muted not in ("0", "1"):
        return HttpResponse(_("muted must be 0 or 1."), status=400)
    User.objects.filter(pk=request.user.pk).update(sounds_muted=muted == "1")
    return HttpResponse(status=204)


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
