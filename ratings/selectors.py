"""Rating reads: current ratings, and the leaderboards (issue #13).

Every board is one indexed ordering over one table (ratings.models): the page is a slice of it, a
player's rank is one count of the rows ordered before theirs, so each page costs the same few
queries however many players there are. The counts (board size, a player's rank) touch every row
of the board, so they are cached for BOARD_COUNT_SECONDS (bench/leaderboards.py: with 100,000
players each count costs more than the rest of the page); a rank is cached under the values that
place the row, so a player whose rating or wins changed gets a fresh one.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings import elo
from ratings.models import INITIAL_RATING, Period, PeriodWins, Rating
from ratings.services import period_starts

# The rating board lists players with a rated match this recently (issue #13).
ACTIVE_DAYS = 90
BOARD_COUNT_SECONDS = 60
BOARD_CACHE_PREFIX = "board"
SEARCH_CANDIDATES = 200


def ratings_of(user_ids: list[int]) -> dict[int, int]:
    """Current rating (the whole number shown) per user id; 1500 before a first rated match."""
    found = dict(Rating.objects.filter(user_id__in=user_ids).values_list("user_id", "value"))
    return {user_id: found.get(user_id, INITIAL_RATING) for user_id in user_ids}


def listed(queryset: QuerySet) -> QuerySet:
    """Only players who may appear on a board: never bots, never banned (deactivated) players."""
    return queryset.filter(user__is_active=True, user__is_bot=False)


@dataclass(frozen=True)
class Board:
    slug: str
    title: Any
    description: Any
    # The board's order, most important first; each is (field, descending). The last is the user
    # id, so every row has one place.
    order: tuple[tuple[str, bool], ...]
    rows: Callable[[], QuerySet]

    def ordered(self) -> QuerySet:
        return self.rows().order_by(*[f"-{name}" if desc else name for name, desc in self.order])

    def _cache_key(self, *parts: object) -> str:
        # A new week or month is a new board (and so are new keys).
        starts = period_starts(timezone.now()).values()
        return ":".join([BOARD_CACHE_PREFIX, self.slug, *map(str, starts), *map(str, parts)])

    def _counted(self, key: str, count: Callable[[], int]) -> int:
        if BOARD_COUNT_SECONDS <= 0:
            return count()
        return cache.get_or_set(self._cache_key(key), count, BOARD_COUNT_SECONDS)

    def size(self) -> int:
        """How many rows the board has (cached for BOARD_COUNT_SECONDS)."""
        return self._counted("size", lambda: self.rows().count())

    def rank_of(self, row: Any) -> int:
        """1 + the number of rows ordered before `row` (one count on the board's index, cached
        for BOARD_COUNT_SECONDS under the row's own values)."""
        before = Q()
        equal: dict[str, Any] = {}
        for name, descending in self.order:
            value = getattr(row, name)
            before |= Q(**equal, **{f"{name}__{'gt' if descending else 'lt'}": value})
            equal[name] = value
        key = ":".join(["rank", *map(str, equal.values())])
        return self._counted(key, lambda: self.rows().filter(before).count() + 1)

    def row_of(self, user_id: int) -> Any | None:
        return board_listing(self).filter(user_id=user_id).first()


def _rating_rows() -> QuerySet:
    since = timezone.now() - datetime.timedelta(days=ACTIVE_DAYS)
    return listed(
        Rating.objects.filter(experience__gte=elo.PROVISIONAL_EXPERIENCE, last_rated_at__gte=since)
    )


def _wins_rows() -> QuerySet:
    return listed(Rating.objects.filter(wins__gt=0))


def _period_rows(period: str) -> Callable[[], QuerySet]:
    def rows() -> QuerySet:
        starts_on = period_starts(timezone.now())[period]
        return listed(PeriodWins.objects.filter(period=period, starts_on=starts_on, wins__gt=0))

    return rows


BOARDS: dict[str, Board] = {
    board.slug: board
    for board in (
        Board(
            "rating",
            _("Rating"),
            _("Established players (experience 50 or more) rated in the last 90 days."),
            (("rating", True), ("user_id", False)),
            _rating_rows,
        ),
        Board(
            "wins",
            _("Wins"),
            _("Rated matches won, all time; fewer matches played ranks higher on a tie."),
            (("wins", True), ("matches", False), ("user_id", False)),
            _wins_rows,
        ),
        Board(
            "week",
            _("This week"),
            _("Rated matches won since Monday; fewer matches played ranks higher on a tie."),
            (("wins", True), ("matches", False), ("user_id", False)),
            _period_rows(Period.WEEK),
        ),
        Board(
            "month",
            _("This month"),
            _("Rated matches won this month; fewer matches played ranks higher on a tie."),
            (("wins", True), ("matches", False), ("user_id", False)),
            _period_rows(Period.MONTH),
        ),
    )
}


def board_listing(board: Board) -> QuerySet:
    """The whole board in order, each row with its user (and, on the period boards, rating)."""
    related = ("user",) if board.rows().model is Rating else ("user", "user__rating")
    return board.ordered().select_related(*related)


def board_find(board: Board, name: str) -> Any | None:
    """The board row of the player called `name`: exactly, else the best-placed one of the first
    SEARCH_CANDIDATES players whose name starts so, ignoring case. The players are looked up
    first, then only their rows on the board (so the board is never scanned for a name)."""
    from accounts.models import User

    exact = list(User.objects.filter(username=name).values_list("pk", flat=True))
    candidates = exact or list(
        User.objects.filter(username__istartswith=name).values_list("pk", flat=True)[
            :SEARCH_CANDIDATES
        ]
    )
    if not candidates:
        return None
    return board.ordered().select_related("user").filter(user_id__in=candidates).first()
