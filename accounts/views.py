"""Accounts' own pages: "Play now" as a guest, sign-up and log-in, the sound toggle, the language,
light or dark and the board's look.
(The profile and the preferences page gather other apps: web/views.py.)"""

from allauth.account.views import LoginView, SignupView
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from accounts.appearance import FIELDS, Appearance, appearance_of, appearance_save
from accounts.forms import AppearanceForm
from accounts.guests import guest_sign_in
from accounts.models import User
from realtime.language import supported_language


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """ "Play now" without an account: a guest identity in the session (accounts/guests.py),
    then the Play page, where the computer waits. A casual quick-pairing tile sends its pool
    and the page it is on (the home page or Play): back there, the page joins that pool as its
    "New opponent" link does (static/js/pool.js, `?pool=`)."""
    if not request.user.is_authenticated and (refusal := guest_sign_in(request)):
        messages.error(request, refusal)
        return redirect("home")
    pool, back = request.POST.get("pool"), request.POST.get("next") or reverse("play")
    if pool:
        if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
            back = reverse("play")
        path = back.partition("?")[0].partition("#")[0]
        return redirect(f"{path}?{urlencode({'pool': pool})}#quick-pairing")
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


@require_http_methods(["GET", "POST"])
def appearance(request: HttpRequest) -> HttpResponse:
    """Light or dark, the board, the checkers: for anyone, a visitor too (accounts/appearance.py).

    A post may name only some of them (the footer's switch sends the scheme alone): the others
    stay as they are. A value not offered changes nothing and shows the form with its error."""
    current = appearance_of(request)
    if request.method == "POST":
        asked = {name: request.POST[name] for name in FIELDS if name in request.POST}
        form = AppearanceForm({**current.as_dict(), **asked})
        if form.is_valid():
            response = redirect(request.POST.get("next") if _safe_next(request) else "appearance")
            appearance_save(request, response, Appearance(**form.cleaned_data))
            return response
    else:
        form = AppearanceForm(initial=current.as_dict())
    status = 400 if form.is_bound else 200
    return render(request, "accounts/appearance.html", {"appearance_form": form}, status=status)


def _safe_next(request: HttpRequest) -> bool:
    return url_has_allowed_host_and_scheme(
        request.POST.get("next"),
        allowed_hosts={request.get_host()},
        require_https=request.is_secure(),
    )
