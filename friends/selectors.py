"""Reads of following: whom a player follows with where each is now, and counts.

Presence reuses what the sockets keep already (realtime/socket_limits.py): every signed-in
socket keeps its user in one Redis sorted set scored by when the entry lapses, so "online" and
"last seen" for a player's follows is one ZMSCORE, and "playing now" one query on the active
matches of those players: both grow with the number of follows (at most FOLLOWS_PER_USER),
never with the site.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import Count, Q

from accounts.models import User
from friends.models import Follow
from games.models import Match, MatchStatus
from moderation.selectors import block_related_ids
from realtime.socket_limits import LAPSE_SECONDS, lapse_times


@dataclass(frozen=True)
class Friend:
    """A followed player as the Friends page shows them. `hidden`: either of the two blocks
    the other, so nothing of their presence is shown."""

    user: User
    online: bool
    match_id: int | None  # the match they are playing now
    last_seen: datetime | None
    hidden: bool

    @property
    def playing(self) -> bool:
        return self.match_id is not None


def follow_summary(user_id: int, viewer_id: int | None) -> tuple[int, bool]:
    """How many follow the player and whether the viewer does, in one query on the follows'
    index (a profile's: it counts follow rows, never the player's matches)."""
    summary = Follow.objects.filter(followed_id=user_id).aggregate(
        followers=Count("pk"), viewer=Count("pk", filter=Q(follower_id=viewer_id or 0))
    )
    return summary["followers"], summary["viewer"] > 0


def follower_count(user_id: int) -> int:
    """How many follow the player: all the followed player sees of it (following is one-way)."""
    return Follow.objects.filter(followed_id=user_id).count()


def following_count(user_id: int) -> int:
    return Follow.objects.filter(follower_id=user_id).count()


def followers_of(user_ids: list[int]) -> dict[int, list[int]]:
    """Each player's followers (the "started playing" notifications)."""
    rows = Follow.objects.filter(followed_id__in=user_ids).values_list("followed_id", "follower_id")
    followers: dict[int, list[int]] = {}
    for followed_id, follower_id in rows:
        followers.setdefault(followed_id, []).append(follower_id)
    return followers


def active_matches_of(user_ids: list[int]) -> dict[int, int]:
    """The match each of these players is in now (player id -> match id), one query."""
    if not user_ids:
        return {}
    playing: dict[int, int] = {}
    rows = (
        Match.objects.filter(status=MatchStatus.ACTIVE)
        .filter(Q(creator_id__in=user_ids) | Q(opponent_id__in=user_ids))
        .order_by("-started_at")
        .values_list("pk", "creator_id", "opponent_id")
    )
    wanted = set(user_ids)
    for match_id, creator_id, opponent_id in rows:
        for player_id in (creator_id, opponent_id):
            if player_id in wanted:
                playing.setdefault(player_id, match_id)
    return playing


def friends_of(user: User) -> list[Friend]:
    """Whom `user` follows: playing first, then online, then by when last seen, then by name."""
    follows = list(
        Follow.objects.filter(follower=user)
        .select_related("followed")
        .order_by("followed__username")
    )
    people = [follow.followed for follow in follows]
    hidden = block_related_ids(user.pk)
    visible = [person.pk for person in people if person.pk not in hidden]
    lapses = lapse_times(visible)
    playing = active_matches_of(visible)
    now = time.time()
    friends = []
    for person in people:
        if person.pk in hidden:
            friends.append(Friend(person, False, None, None, True))
            continue
        lapse = lapses.get(person.pk)
        online = lapse is not None and lapse > now
        last_seen = person.last_login
        if lapse is not None and not online:
            seen = datetime.fromtimestamp(lapse - LAPSE_SECONDS, tz=UTC)
            last_seen = seen if last_seen is None else max(seen, last_seen)
        friends.append(Friend(person, online, playing.get(person.pk), last_seen, False))
    never = datetime.min.replace(tzinfo=UTC)
    friends.sort(key=lambda f: (not f.playing, not f.online, -(f.last_seen or never).timestamp()))
    return friends


def friends_playing(user: User) -> list[Friend]:
    """The home page's "friends playing now"."""
    if not user.is_authenticated:
        return []
    hidden = block_related_ids(user.pk)
    followed = [
        followed_id
        for followed_id in Follow.objects.filter(follower=user).values_list(
            "followed_id", flat=True
        )
        if followed_id not in hidden
    ]
    playing = active_matches_of(followed)
    people = User.objects.filter(pk__in=playing).order_by("username")
    return [Friend(person, True, playing[person.pk], None, False) for person in people]
