"""What the tournament pages and socket read (docs/architecture.md "How code is shaped here": reads
go through
selectors).

`standings_snapshot` is one read of a tournament's players in standings order (docs/rules.md
"Arena tournaments", item 4), kept per process for one version of the tournament: every socket of
the tournament in a Daphne process shares it (tournaments/live.py), and each cuts its viewer's
page and own row out of it (`standings_page`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.models import Match, MatchStatus
from games.selectors import current_boards
from tournaments.arena import Standing, rank
from tournaments.models import ChatLine, Pairing, Player, Status, Tournament

PAGE_SIZE = 10
TOP_GAMES = 3
PODIUM = 3
# How long the tournaments page lists a finished tournament.
FINISHED_LISTED_FOR = timedelta(days=7)


@dataclass(frozen=True)
class Row:
    place: int | None
    user_id: int
    username: str
    points: int
    performance: int | None
    wins: int
    losses: int
    on_fire: bool
    playing: int | None  # the match being played
    paused: bool
    withdrawn: bool
    struck_out: bool
    paused_as_absent: bool = False  # paused by the arena (docs/rules.md "Arena tournaments", 5)

    @property
    def away(self) -> bool:
        return self.paused or self.withdrawn

    def me(self) -> dict[str, Any]:
        """The viewer's own state, for the page's buttons (docs/protocol.md `standings`.me)."""
        return {
            "joined": not (self.withdrawn or self.struck_out), "paused": self.paused,
            "paused_as_absent": self.paused_as_absent, "removed": self.struck_out,
            "playing": self.playing,
        }  # fmt: skip

    def wire(self) -> dict[str, Any]:
        return {
            "place": self.place, "user": self.username, "user_id": self.user_id,
            "points": self.points, "performance": self.performance, "wins": self.wins,
            "losses": self.losses, "on_fire": self.on_fire, "playing": self.playing is not None,
            "away": self.away, "struck_out": self.struck_out,
        }  # fmt: skip


def standings(tournament_id: int) -> list[Row]:
    """Every player in standings order: one query."""
    players = (
        Player.objects.filter(tournament_id=tournament_id)
        .order_by("joined_at", "pk")
        .values_list(
            "user_id", "user__username", "points", "performance_total", "counted", "wins",
            "losses", "streak", "playing_id", "withdrawn", "paused", "removed",
            "paused_as_absent",
        )
    )  # fmt: skip
    by_user = {}
    rows = []
    for order, values in enumerate(players):
        user_id, _name, points, total, counted, *_rest, removed, _absent = values
        by_user[user_id] = values
        rows.append(Standing(user_id, points, total / counted if counted else None, order, removed))
    ranked = []
    for place, standing in rank(rows):
        (user_id, name, points, total, counted, wins, losses, streak, playing, withdrawn,
         paused, removed, absent) = by_user[standing.user_id]  # fmt: skip
        ranked.append(
            Row(
                place=place, user_id=user_id, username=name, points=points,
                performance=round(total / counted) if counted else None, wins=wins,
                losses=losses, on_fire=streak >= 2, playing=playing, paused=paused,
                withdrawn=withdrawn, struck_out=removed, paused_as_absent=absent,
            )
        )  # fmt: skip
    return ranked


_cache_lock = threading.Lock()
_snapshots: dict[int, tuple[int, list[Row]]] = {}


def standings_snapshot(tournament_id: int, version: int) -> list[Row]:
    """`standings` for this version of the tournament, read once per process."""
    with _cache_lock:
        kept = _snapshots.get(tournament_id)
    if kept is not None and kept[0] >= version:
        return kept[1]
    rows = standings(tournament_id)
    with _cache_lock:
        _snapshots[tournament_id] = (version, rows)
    return rows


def standings_page(rows: list[Row], *, page: int, user_id: int | None) -> dict[str, Any]:
    """One page of the standings and, wherever it is, the viewer's own row."""
    pages = max(1, -(-len(rows) // PAGE_SIZE))
    page = min(max(1, page), pages)
    shown = rows[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    own = next((row for row in rows if row.user_id == user_id), None) if user_id else None
    return {
        "page": page, "pages": pages, "players": len(rows),
        "rows": [row.wire() for row in shown], "own": own.wire() if own else None,
        "me": own.me() if own else None,
    }  # fmt: skip


def top_boards(tournament_id: int) -> list[dict[str, Any]]:
    """The boards of the matches the leading players are playing now, at most TOP_GAMES: two
    indexed reads (the leaders' matches, then each match's current game)."""
    leaders = (
        Player.objects.filter(tournament_id=tournament_id, playing__status=MatchStatus.ACTIVE)
        .order_by("-points", "joined_at")
        .values_list("playing_id", flat=True)[: TOP_GAMES * 2]
    )
    ids = list(dict.fromkeys(leaders))[:TOP_GAMES]
    if not ids:
        return []
    boards = current_boards(ids)
    names = {
        pk: (creator, opponent)
        for pk, creator, opponent in Match.objects.filter(pk__in=ids).values_list(
            "pk", "creator__username", "opponent__username"
        )
    }
    return [
        {"match_id": match_id, "players": list(names[match_id]), **boards[match_id]}
        for match_id in ids
        if match_id in boards and match_id in names
    ]


def podium(rows: list[Row]) -> list[dict[str, Any]]:
    return [row.wire() for row in rows if row.place is not None and row.place <= PODIUM]


def tournament_for_page(tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_related("created_by").filter(pk=tournament_id).first()


def tournament_lists(user) -> dict[str, list[Tournament]]:
    """The tournaments page: running, starting soon (public), recently finished."""
    now = timezone.now()
    public = Tournament.objects.filter(private=False)
    mine = Q(created_by_id=getattr(user, "pk", None)) if getattr(user, "pk", None) else Q(pk=None)
    return {
        "running": list(public.filter(status=Status.RUNNING).order_by("ends_at")[:20]),
        "upcoming": list(
            Tournament.objects.filter(Q(private=False) | mine, status=Status.SCHEDULED).order_by(
                "starts_at"
            )[:20]
        ),
        "finished": list(
            public.filter(
                status=Status.FINISHED, finished_at__gte=now - FINISHED_LISTED_FOR
            ).order_by("-finished_at")[:20]
        ),
    }


def history_of(user_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """A player's finished tournaments for the profile: name, when, place, points."""
    rows = (
        Player.objects.filter(
            user_id=user_id, tournament__status=Status.FINISHED, tournament__private=False
        )  # fmt: skip
        .order_by("-tournament__ends_at")
        .values_list(
            "tournament_id",
            "tournament__name",
            "tournament__ends_at",
            "final_place",
            "points",
            "removed",
        )[:limit]  # fmt: skip
    )
    return [
        {"id": tid, "name": name, "ended": ended, "place": None if removed else place,
         "points": points, "struck_out": removed}
        for tid, name, ended, place, points, removed in rows
    ]  # fmt: skip


CONTROLS = ("join", "pause", "resume", "withdraw")
OVER = (Status.FINISHED, Status.CANCELLED)


def controls(tournament: Tournament, player: Player | None) -> dict[str, bool]:
    """Which of the page's buttons show, by name, for the tournament's status and the viewer's
    standing: joining before the end, withdrawing or pausing while joined (docs/rules.md "Arena
    tournaments", items 1 and 5), none once it is over. The same choice static/js/tournament.js
    `showControls` makes from the socket's `me` (docs/protocol.md "Tournament socket"), so the
    page as served already shows what its first message would."""
    if tournament.status in OVER:
        return dict.fromkeys(CONTROLS, False)
    removed = player is not None and player.removed
    joined = player is not None and not (player.withdrawn or removed)
    paused = joined and player is not None and player.paused
    return {"join": not joined and not removed, "pause": joined and not paused,
            "resume": paused, "withdraw": joined}  # fmt: skip


def may_chat(tournament: Tournament, player: Player | None) -> bool:
    """Whether the page offers the chat's form: to a player who was not removed, until the end
    (docs/rules.md "Arena tournaments", item 6; tournaments/services/chat.py refuses the rest).
    static/js/tournament.js `showChat` makes the same choice from the socket's `me`."""
    return tournament.status not in OVER and player is not None and not player.removed


def player_of(tournament_id: int, user_id: int | None) -> Player | None:
    if user_id is None:
        return None
    return Player.objects.filter(tournament_id=tournament_id, user_id=user_id).first()


def chat_lines(tournament_id: int, limit: int = 50) -> list[dict[str, Any]]:
    """The latest chat lines, oldest first (tournaments/services/chat.py `wire_line`'s shape)."""
    rows = (
        ChatLine.objects.filter(tournament_id=tournament_id)
        .order_by("-id")
        .values_list("pk", "user__username", "text", "created_at")[:limit]
    )
    return [
        {"id": pk, "user": name, "text": text, "at": at.isoformat()}
        for pk, name, text, at in reversed(rows)
    ]


def client_seeds_drawn_by_server(match_id: int) -> bool:
    """A tournament match's client seeds are both drawn by the pairing wave with its server seed
    (tournaments/services/pairing.py `_start`): neither player sent one."""
    return Pairing.objects.filter(match_id=match_id).exists()
