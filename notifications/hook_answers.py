"""What notifications hears from the apps below it, through the signals they declare (games,
analysis, moderation: docs/architecture.md, "Architecture", the hooks table), connected at start-up
by
`NotificationsConfig.ready()`. Each receiver runs after the commit of what it tells, turns the
news into `notify` calls (notifications/services.py) and imports nothing upward."""

from __future__ import annotations

from django.urls import reverse

from accounts.models import User
from analysis import hooks as analysis_hooks
from friends.selectors import followers_of
from games import hooks as games_hooks
from games.models import Match
from moderation import hooks as moderation_hooks
from notifications.models import Kind
from notifications.services import notify, notify_many


def challenge_sent(sender, *, match_id: int, creator_id: int, invited_id: int, **kwargs) -> None:  # noqa: ANN001
    """A direct challenge: the bell keeps it with its Accept and Decline (the page offers them
    while the challenge is open, docs/protocol.md "The site socket")."""
    notify(
        recipient_id=invited_id, kind=Kind.CHALLENGE, sender_id=creator_id,
        payload={
            "match_id": match_id,
            "accept_url": reverse("match_accept", kwargs={"match_id": match_id}),
            "decline_url": reverse("challenge_decline", kwargs={"match_id": match_id}),
        },
        dedupe_key=f"challenge:{match_id}",
    )  # fmt: skip


def matches_started(sender, *, match_ids: list[int], player_ids: list[int], **kwargs) -> None:  # noqa: ANN001
    """A player someone follows started a match: each follower who turned the kind on is told,
    with the match to watch (capped per player and follower: notifications/services.py)."""
    followers = followers_of(list(player_ids))
    if not followers:
        return
    seats = Match.objects.filter(pk__in=match_ids).values_list("pk", "creator_id", "opponent_id")
    match_of = {}
    for match_id, creator_id, opponent_id in seats:
        match_of[creator_id] = match_id
        if opponent_id is not None:
            match_of[opponent_id] = match_id
    names = dict(User.objects.filter(pk__in=followers).values_list("pk", "username"))
    for player_id, follower_ids in followers.items():
        if player_id not in match_of:
            continue
        notify_many(
            recipient_ids=follower_ids, kind=Kind.FRIEND_PLAYING, sender_id=player_id,
            payload={"match_id": match_of[player_id], "player": names.get(player_id, "")},
            dedupe_key=f"playing:{match_of[player_id]}:{player_id}",
        )  # fmt: skip


def analysis_ready(sender, *, match_id: int, requested_by_id: int | None, **kwargs) -> None:  # noqa: ANN001
    """The analysis someone asked for is stored: they are told, with the replay to open. One
    queued by itself (a rated match's end) tells nobody: nobody is waiting for it."""
    if requested_by_id is None:
        return
    notify(
        recipient_id=requested_by_id, kind=Kind.ANALYSIS_READY,
        payload={"match_id": match_id,
                 "url": reverse("match_replay", kwargs={"match_id": match_id})},
        dedupe_key=f"analysis:{match_id}",
    )  # fmt: skip


def report_closed(
    sender,
    *,
    report_id: int,
    reporter_id: int,
    target_id: int,
    sanctioned: bool,
    **kwargs,  # noqa: ANN001
) -> None:
    """The reporter hears that a moderator decided, and whether they acted; never the
    moderator's words (a sanction's reason is between the moderator and the player)."""
    target = User.objects.filter(pk=target_id).values_list("username", flat=True).first()
    notify(
        recipient_id=reporter_id, kind=Kind.REPORT_DECIDED,
        payload={"player": target or "", "acted": sanctioned},
        dedupe_key=f"report:{report_id}",
    )  # fmt: skip


def _correspondence(kind: str, user_id: int, match_id: int, deadline) -> None:  # noqa: ANN001
    """Tell the player to move: from the opponent, so the cap per sender holds when a
    correspondence match is played fast; one row per turn (its deadline)."""
    seats = Match.objects.filter(pk=match_id).values_list("creator_id", "opponent_id").first()
    if seats is None:
        return
    opponent_id = seats[1] if seats[0] == user_id else seats[0]
    opponent = User.objects.filter(pk=opponent_id).values_list("username", flat=True).first()
    notify(
        recipient_id=user_id, kind=kind, sender_id=opponent_id,
        payload={"match_id": match_id, "opponent": opponent or "",
                 "deadline": deadline.isoformat()},
        dedupe_key=f"{kind}:{match_id}:{int(deadline.timestamp())}",
    )  # fmt: skip


def correspondence_turn_due(sender, *, user_id: int, match_id: int, deadline, **kwargs) -> None:  # noqa: ANN001
    _correspondence(Kind.CORRESPONDENCE_TURN, user_id, match_id, deadline)


def correspondence_deadline_near(
    sender,
    *,
    user_id: int,
    match_id: int,
    deadline,
    **kwargs,  # noqa: ANN001
) -> None:
    _correspondence(Kind.CORRESPONDENCE_DEADLINE, user_id, match_id, deadline)


def connect() -> None:
    games_hooks.challenge_sent.connect(challenge_sent, dispatch_uid="notifications.challenge")
    games_hooks.match_started.connect(matches_started, dispatch_uid="notifications.playing")
    analysis_hooks.analysis_ready.connect(analysis_ready, dispatch_uid="notifications.analysis")
    moderation_hooks.report_closed.connect(report_closed, dispatch_uid="notifications.report")
    games_hooks.correspondence_turn_due.connect(
        correspondence_turn_due, dispatch_uid="notifications.correspondence_turn"
    )
    games_hooks.correspondence_deadline_near.connect(
        correspondence_deadline_near, dispatch_uid="notifications.correspondence_deadline"
    )
