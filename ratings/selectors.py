"""Rating reads: current ratings, and the leaderboards.

Every board is one indexed ordering over one table (ratings.models), its key a row of ascending
values (the descending ones negated) that a B-tree index holds as is. A page is keyset-paged: the
key of each page's first row is listed once (Board.page_starts, one window-function pass over the
board, cached for BOARD_COUNT_SECONDS with the board's size), and page k is the 50 rows whose key
is >= the k-th start, an index range scan however deep the page (OFFSET made page 200 scan and
join 10,000 rows: bench/leaderboards.py). A player's rank is one count of the rows whose key is
smaller, cached under the key, so a player whose rating or wins changed gets a fresh one.
The trade-off: for up to BOARD_COUNT_SECONDS a page starts at the row that held its first place
when the starts were listed, so a player who moved meanwhile can show on two pages or none.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Count, F, Field, Func, QuerySet, Value, Window
from django.db.models.functions import RowNumber
from django.db.models.lookups import GreaterThanOrEqual, LessThan
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from ratings import elo
from ratings.models import (
    NEW_PLAYER,
    CorrespondenceRating,
    Period,
    PeriodWins,
    Rating,
    ShownRating,
)
from ratings.services import period_starts

# The rating board lists players with a rated match this recently: a board of players who left
# long ago would tell a newcomer nothing about whom they can meet.
ACTIVE_DAYS = 90
BOARD_COUNT_SECONDS = 60
BOARD_CACHE_PREFIX = "board"
SEARCH_CANDIDATES = 200
PAGE_SIZE = 50
# Beside the rating board, the best provisional players (experience under 50, rated in the last
# ACTIVE_DAYS): at a site's start nobody is established yet, and a board of nobody tells a
# newcomer nothing. A short list, not a board: no pages, no ranks, no search.
PROVISIONAL_SHOWN = 20


class Row(Func):
    """A row value, ROW(a, b, ...): PostgreSQL compares two of them column by column, and serves
    the comparison from a B-tree on the same columns as one range (keyset paging)."""

    function = "ROW"
    output_field = Field()


def ratings_of(user_ids: list[int], *, correspondence: bool = False) -> dict[int, ShownRating]:
    """Current rating as shown (whole number, provisional or not) per user id; a provisional 1500
    before a first rated match. `correspondence`: the correspondence board's
    (ratings.models.CorrespondenceRating)."""
    table = CorrespondenceRating if correspondence else Rating
    rows = table.objects.filter(user_id__in=user_ids).values_list("user_id", "value", "experience")
    found = {user_id: ShownRating.of(value, experience) for user_id, value, experience in rows}
    return {user_id: found.get(user_id, NEW_PLAYER) for user_id in user_ids}


def correspondence_rating_of(user_id: int) -> ShownRating | None:
    """The player's correspondence rating as shown, or None before a first rated correspondence
    match (the profile shows it only then)."""
    row = CorrespondenceRating.objects.filter(user_id=user_id).values_list("value", "experience")
    found = row.first()
    return ShownRating.of(*found) if found else None


def listed(queryset: QuerySet) -> QuerySet:
    """Only players who may appear on a board: never bots, never banned (deactivated) players."""
    return queryset.filter(user__is_active=True, user__is_bot=False)


@dataclass(frozen=True)
class Board:
    slug: str
    title: Any
    description: Any
    # The board's key, every part ascending (a descending one negated), most important first; the
    # last is the user id, so every row has one place. The board's index holds the same key.
    key: tuple[Any, ...]
    rows: Callable[[], QuerySet]

    def keyed(self) -> QuerySet:
        """The board's rows in order, each with its key as key_0, key_1, ..."""
        keys = {f"key_{index}": part for index, part in enumerate(self.key)}
        return self.rows().alias(**keys).annotate(**{name: F(name) for name in keys})

    def ordered(self) -> QuerySet:
        return self.keyed().order_by(*self.key)

    def key_of(self, row: Any) -> tuple[Any, ...]:
        return tuple(getattr(row, f"key_{index}") for index in range(len(self.key)))

    def _cache_key(self, *parts: object) -> str:
        # A new week or month is a new board (and so are new keys).
        starts = period_starts(timezone.now()).values()
        return ":".join([BOARD_CACHE_PREFIX, self.slug, *map(str, starts), *map(str, parts)])

    def _counted(self, key: str, count: Callable[[], Any]) -> Any:
        if BOARD_COUNT_SECONDS <= 0:
            return count()
        return cache.get_or_set(self._cache_key(key), count, BOARD_COUNT_SECONDS)

    def _page_starts(self) -> tuple[int, list[tuple[Any, ...]]]:
        numbered = self.keyed().annotate(
            position=Window(RowNumber(), order_by=list(self.key)), size=Window(Count("pk"))
        )
        firsts = numbered.annotate(slot=(F("position") - 1) % PAGE_SIZE).filter(slot=0)
        names = [f"key_{index}" for index in range(len(self.key))]
        rows = list(firsts.order_by("position").values_list("size", *names))
        return (rows[0][0] if rows else 0), [tuple(row[1:]) for row in rows]

    def page_starts(self) -> tuple[int, list[tuple[Any, ...]]]:
        """(board size, the key of each page's first row), as the beat task listed them at most
        BOARD_COUNT_SECONDS ago (ratings.tasks.refresh_boards); listed here only when the cache
        has none (the first view after a start, or no beat running)."""
        if BOARD_COUNT_SECONDS <= 0:
            return self._page_starts()
        starts = cache.get(self._cache_key("pages"))
        return starts if starts is not None else self.refresh_page_starts()

    def refresh_page_starts(self) -> tuple[int, list[tuple[Any, ...]]]:
        """List the page starts again and keep them until two refreshes have been missed: the
        window-function pass over the whole board takes 0.8-1.3 s on 100,000 players
        (bench/leaderboards.py), which a page view should never wait for."""
        starts = self._page_starts()
        cache.set(self._cache_key("pages"), starts, 3 * BOARD_COUNT_SECONDS)
        return starts

    def size(self) -> int:
        return self.page_starts()[0]

    def page(self, number: int) -> QuerySet:
        """Page `number` (from 1) of board_listing: an index range from the page's first key."""
        starts = self.page_starts()[1]
        if number > len(starts):
            return board_listing(self).none()
        start = Row(*map(Value, starts[number - 1]))
        return board_listing(self).filter(GreaterThanOrEqual(Row(*self.key), start))[:PAGE_SIZE]

    def rank_of(self, row: Any) -> int:
        """1 + the number of rows whose key is smaller than `row`'s (one count on the board's
        index, cached for BOARD_COUNT_SECONDS under the key)."""
        key = self.key_of(row)
        before = LessThan(Row(*self.key), Row(*map(Value, key)))
        return self._counted(
            ":".join(["rank", *map(str, key)]), lambda: self.rows().filter(before).count() + 1
        )

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
            (-F("rating"), F("user_id")),
            _rating_rows,
        ),
        Board(
            "wins",
            _("Wins"),
            _("Rated matches won, all time; fewer matches played ranks higher on a tie."),
            (-F("wins"), F("matches"), F("user_id")),
            _wins_rows,
        ),
        Board(
            "week",
            _("This week"),
            _("Rated matches won since Monday; fewer matches played ranks higher on a tie."),
            (-F("wins"), F("matches"), F("user_id")),
            _period_rows(Period.WEEK),
        ),
        Board(
            "month",
            _("This month"),
            _("Rated matches won this month; fewer matches played ranks higher on a tie."),
            (-F("wins"), F("matches"), F("user_id")),
            _period_rows(Period.MONTH),
        ),
    )
}


@dataclass(frozen=True)
class ProvisionalLine:
    """A provisional player as the rating board's second list shows them."""

    user_id: int
    username: str
    rating: ShownRating
    matches: int
    wins: int


def _provisional_players() -> list[ProvisionalLine]:
    since = timezone.now() - datetime.timedelta(days=ACTIVE_DAYS)
    rows = listed(
        Rating.objects.filter(experience__lt=elo.PROVISIONAL_EXPERIENCE, last_rated_at__gte=since)
    )
    rows = rows.select_related("user").order_by("-rating", "user_id")[:PROVISIONAL_SHOWN]
    return [
        ProvisionalLine(
            row.user_id, row.user.username, ShownRating.of(row.value, row.experience),
            row.matches, row.wins,
        )
        for row in rows
    ]  # fmt: skip


def provisional_players_refresh() -> list[ProvisionalLine]:
    """List the provisional players again (ratings.tasks.refresh_boards, once a minute) and keep
    them until two refreshes have been missed, as the boards' page starts are kept: the list has
    no index of its own (the rating board's is partial, established players only), so a page view
    reads the kept list rather than sorting every provisional player."""
    players = _provisional_players()
    cache.set(f"{BOARD_CACHE_PREFIX}:provisional", players, 3 * BOARD_COUNT_SECONDS)
    return players


def provisional_players() -> list[ProvisionalLine]:
    """The best PROVISIONAL_SHOWN provisional players by rating, as listed at most
    BOARD_COUNT_SECONDS ago; listed here only when the cache has none."""
    if BOARD_COUNT_SECONDS <= 0:
        return _provisional_players()
    players = cache.get(f"{BOARD_CACHE_PREFIX}:provisional")
    return players if players is not None else provisional_players_refresh()


def board_listing(board: Board) -> QuerySet:
    """The whole board in order, each row with its user (and, on the period boards, rating)."""
    related = ("user",) if board.rows().model is Rating else ("user", "user__rating")
    return board.ordered().select_related(*related)


def board_find(board: Board, name: str) -> Any | None:
    """The board row of the player called `name`: exactly, else the best-placed one of the first
    SEARCH_CANDIDATES players whose name starts so, ignoring case. The players are looked up
    first, then only their rows on the board (so the board is never scanned for a name)."""
    exact = list(User.objects.filter(username=name).values_list("pk", flat=True))
    candidates = exact or list(
        User.objects.filter(username__istartswith=name).values_list("pk", flat=True)[
            :SEARCH_CANDIDATES
        ]
    )
    if not candidates:
        return None
    return board.ordered().select_related("user").filter(user_id__in=candidates).first()


@dataclass(frozen=True)
class LeaderLine:
    """A line of the home page's top of the rating board: `rank` is None for a provisional
    player (listed by rating, not ranked, as the leaderboard page lists them)."""

    rank: int | None
    username: str
    rating: ShownRating


def leaders(limit: int = 5) -> list[LeaderLine]:
    """The first `limit` of the rating board (its first page, read from the kept page starts);
    while nobody is established (a site's start), the best provisional players instead, from
    their kept list: never a sort of the whole board on a page view."""
    board = BOARDS["rating"]
    established = [
        LeaderLine(rank, row.user.username, ShownRating.of(row.value, row.experience))
        for rank, row in enumerate(board.page(1)[:limit], start=1)
    ]
    if established:
        return established
    return [LeaderLine(None, line.username, line.rating) for line in provisional_players()[:limit]]
