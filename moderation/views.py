"""The players' side of moderation: block and unblock (profile, settings) and reports."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from moderation import services
from moderation.forms import ReportForm
from realtime.errors import CommandError


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    target = request.POST.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(fallback)


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    target = get_object_or_404(User, username=username, is_active=True)
    try:
        services.block_add(user=request.user, target=target)
    except CommandError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("You blocked %(name)s: no matches or chat between you.") % {"name": target.username},
        )
    return _back(request, target.get_absolute_url())


@login_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    target = get_object_or_404(User, username=username)
    if services.block_remove(user=request.user, target_id=target.pk):
        messages.success(request, _("You unblocked %(name)s.") % {"name": target.username})
    return _back(request, target.get_absolute_url())


@login_required
@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, username: str) -> HttpResponse:
    target = get_object_or_404(User, username=username, is_active=True)
    if not services.can_report(request.user) or target.pk == request.user.pk:
        messages.error(request, _("You cannot report this player."))
        return redirect(target.get_absolute_url())
    initial = {"match": request.GET.get("match")} if request.GET.get("match", "").isdigit() else {}
    form = ReportForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.report_create(
                reporter=request.user,
                target=target,
                reason=form.cleaned_data["reason"],
                text=form.cleaned_data["text"],
                match_id=form.cleaned_data["match"],
            )
        except CommandError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Thank you: the moderators will look at your report."))
            return redirect(target.get_absolute_url())
    return render(request, "moderation/report.html", {"target": target, "form": form})
