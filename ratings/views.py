"""The leaderboards: parse, call the selectors, render."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import cached_property

from config.db_router import replica_reads
from ratings.selectors import BOARDS, PAGE_SIZE, Board, board_find, provisional_players
from ratings.templatetags.ratings import rating_text

PER_PAGE = PAGE_SIZE
SEARCH_MAX_LENGTH = 150  # the longest username Django allows


@dataclass(frozen=True)
class Line:
    """One row of a board as the page shows it: worked out here once, so the template does a few
    lookups per row (bench/leaderboards.py: rendering 50 rows was most of a page's time)."""

    rank: int
    username: str
    cells: tuple[object, ...]
    own: bool
    found: bool
    gap_before: bool = False  # the signed-in player's own row, shown after the page

    @property
    def classes(self) -> str:
        return " ".join(name for name, on in (("own", self.own), ("found", self.found)) if on)


def _lines(board: Board, rows, *, first_rank: int, user_id, found_id) -> list[Line]:
    lines = []
    for rank, row in enumerate(rows, start=first_rank):
        rating = rating_text(row if board.slug in ("rating", "wins") else row.user.rating)
        if board.slug == "rating":
            cells = (rating, row.matches, row.wins)
        else:
            cells = (row.wins, row.matches, rating)
        lines.append(
            Line(rank, row.user.username, cells, row.user_id == user_id, row.user_id == found_id)
        )
    return lines


class BoardPaginator(Paginator):
    """Pages of a board, its size counted once a minute (Board.size), not on every request; a
    page is read from its first row's key (Board.page), not with OFFSET."""

    def __init__(self, board: Board) -> None:
        super().__init__([], PER_PAGE)
        self.board = board

    @cached_property
    def count(self) -> int:
        return self.board.size()

    def page(self, number) -> Page:
        number = self.validate_number(number)
        return Page(self.board.page(number), number, self)


@replica_reads
def leaderboard(request: HttpRequest, board: str = "rating") -> HttpResponse:
    if board not in BOARDS:
        raise Http404
    chosen = BOARDS[board]
    pages = BoardPaginator(chosen)
    # Usernames are printable; anything else (a NUL byte PostgreSQL refuses) cannot match one.
    search = "".join(filter(str.isprintable, request.GET.get("player", "")))
    search = search.strip()[:SEARCH_MAX_LENGTH]
    found = board_find(chosen, search) if search else None
    number = request.GET.get("page")
    if found is not None:
        found.rank = chosen.rank_of(found)
        number = (found.rank - 1) // PER_PAGE + 1
    page = pages.get_page(number)
    user_id = request.user.pk if request.user.is_authenticated else None
    found_id = found.user_id if found is not None else None
    lines = _lines(chosen, page, first_rank=page.start_index(), user_id=user_id, found_id=found_id)
    own_line = None
    if user_id is not None and not any(line.own for line in lines):
        own = chosen.row_of(user_id)
        if own is not None:
            [own_line] = _lines(
                chosen, [own], first_rank=chosen.rank_of(own), user_id=user_id, found_id=found_id
            )
            # "…" only where rows are left out between the page and the own row: a page the
            # counted size (cached for a minute) leaves empty is no gap before #1.
            gap = bool(lines) and own_line.rank > lines[-1].rank + 1
            own_line = dataclasses.replace(own_line, gap_before=gap)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "board": chosen,
            "boards": BOARDS.values(),
            "page": page,
            # One loop over plain rows, no include per row (an include per row was a third of the
            # page's rendering time, profiled on bench/leaderboards.py's board).
            "lines": lines + [own_line] if own_line else lines,
            "on_board": own_line is not None or any(line.own for line in lines),
            # Beside the rating board's first page only: a short list, not a board of its own.
            "provisional": (
                provisional_players()
                if chosen.slug == "rating" and page.number == 1 and not search
                else []
            ),
            "search": search,
            "found": found,
            # One reverse() for every row's link (usernames need no quoting: \w.@+- only).
            "profile_prefix": reverse("profile", kwargs={"username": "_"})[:-1],
        },
    )
