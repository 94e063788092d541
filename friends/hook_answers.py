"""How friends answers games' hooks (games/hooks.py), filled at start-up by
`FriendsConfig.ready()` (docs/architecture.md, "Architecture")."""

from __future__ import annotations

from django.template.loader import render_to_string

from friends.models import Follow
from games import hooks as games_hooks


def match_page_follow(match, request) -> str:  # noqa: ANN001
    """The match page's Follow / Unfollow buttons for each player the viewer is not (people
    only: guests and bots are not followed, friends/services.py)."""
    viewer = request.user
    if not viewer.is_authenticated or viewer.is_guest:
        return ""
    players = [
        player
        for player in (match.creator, match.opponent)
        if player is not None and player.pk != viewer.pk and not player.is_bot
        and not player.is_guest
    ]  # fmt: skip
    if not players:
        return ""
    followed = set(
        Follow.objects.filter(
            follower=viewer, followed__in=[player.pk for player in players]
        ).values_list("followed_id", flat=True)
    )
    return render_to_string(
        "friends/_follow_buttons.html",
        {"players": [(player, player.pk in followed) for player in players]},
        request=request,
    )


def connect() -> None:
    games_hooks.match_page_follow.fill(match_page_follow)
