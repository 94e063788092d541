"""The notifications page (every kept notification, for a page without the bell's script or a
look at all of them), its Mark all read and Clear buttons, and the preferences' section."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from notifications.forms import NotificationKindsForm
from notifications.services import (
    kinds_set,
    latest,
    notifications_clear,
    notifications_mark_read,
)
from realtime.errors import CommandError


@login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    rows = latest(request.user.pk, limit=settings.NOTIFICATIONS_KEPT)
    return render(request, "notifications/notifications.html", {"notifications": rows})


def _one_id(request: HttpRequest) -> list[int] | None:
    """The `id` a form names, or None when it names all; ValueError for anything else."""
    raw = request.POST.get("id", "")
    if raw == "":
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise ValueError(raw)
    return [int(raw)]


def _change(request: HttpRequest, change) -> HttpResponse:  # noqa: ANN001
    """Mark read or clear what the form names (`id`, or all without one)."""
    try:
        change(user_id=request.user.pk, ids=_one_id(request))
    except ValueError:
        return HttpResponseBadRequest(_("There is no such notification."))
    except CommandError as error:
        messages.error(request, error.message)
    return redirect("notifications")


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    return _change(request, notifications_mark_read)


@login_required
@require_POST
def notifications_delete(request: HttpRequest) -> HttpResponse:
    return _change(request, notifications_clear)


@login_required
@require_POST
def notification_kinds(request: HttpRequest) -> HttpResponse:
    form = NotificationKindsForm(request.POST)
    if form.is_valid():
        kinds_set(user_id=request.user.pk, kinds=form.cleaned_data["kinds"])
        messages.success(request, _("Your notification choices are saved."))
    else:
        messages.error(request, _("Those notification choices are not valid."))
    return redirect(reverse("preferences") + "#notification-choices")
