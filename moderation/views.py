"""The players' side of moderation: block and unblock (profile, settings) and reports."""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from moderation import selectors, services
from moderation.forms import ReportForm
from realtime.errors import CommandError

# A match id as a link carries it: digits only, at most 18 (a bigint's range).
MATCH_ID = re.compile(r"[0-9]{1,18}")


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
    fixed_match = None
    if "match" in request.GET:  # from a match page: that match, named on the form
        fixed_match = _fixed_match(request, target)
        if fixed_match is None:
            return redirect("report", username=target.username)
    choices = (
        []
        if fixed_match
        else selectors.report_match_choices(reporter_id=request.user.pk, target_id=target.pk)
    )
    form = ReportForm(request.POST or None, fixed_match=fixed_match, choices=choices)
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
    context = {"target": target, "form": form, "fixed_match": fixed_match, "choices": choices}
    return render(request, "moderation/report.html", context)


def _fixed_match(request: HttpRequest, target: User) -> tuple[int, str] | None:
    """The match a match page's link names, when the target played or chatted in it; else None,
    with the reason shown (a mistyped, foreign or missing id attaches nothing)."""
    raw = request.GET["match"]
    match_id = int(raw) if MATCH_ID.fullmatch(raw) else None
    label = (
        None
        if match_id is None
        else selectors.report_match_label(match_id=match_id, viewer_id=request.user.pk)
    )
    try:
        if label is None:
            raise CommandError("not_found", _("There is no such match."))
        services.report_match_check(target=target, match_id=match_id)
    except CommandError as error:
        messages.error(request, error.message)
        return None
    return match_id, label
