"""The Friends page and the Follow / Unfollow buttons (form posts, from a profile or a match
page, back to where they were pressed)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.models import User
from friends.selectors import following_count, friends_of
from friends.services import follow_add, follow_remove
from realtime.errors import CommandError


def _back(request: HttpRequest, player: User) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("profile", username=player.username)


@login_required
@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username)
    try:
        follow_add(user=request.user, target=player)
    except CommandError as error:
        messages.error(request, error.message)
    return _back(request, player)


@login_required
@require_POST
def unfollow(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username)
    follow_remove(user=request.user, target_id=player.pk)
    return _back(request, player)


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    user = request.user
    return render(
        request,
        "friends/friends.html",
        {
            "friends": [] if user.is_guest else friends_of(user),
            "following": following_count(user.pk),
            "follow_limit": settings.FOLLOWS_PER_USER,
        },
    )
