"""The leaderboards (issue #13): parse, call the selectors, render."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import cached_property

from ratings.selectors import BOARDS, Board, board_find, board_listing

PER_PAGE = 50
SEARCH_MAX_LENGTH = 150  # the longest username Django allows


class BoardPaginator(Paginator):
    """Pages of a board, its size counted once a minute (Board.size), not on every request."""

    def __init__(self, board: Board) -> None:
        super().__init__(board_listing(board), PER_PAGE)
        self.board = board

    @cached_property
    def count(self) -> int:
        return self.board.size()


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
    own = None
    if request.user.is_authenticated:
        own = chosen.row_of(request.user.pk)
        if own is not None:
            own.rank = chosen.rank_of(own)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "board": chosen,
            "boards": BOARDS.values(),
            "page": page,
            "search": search,
            "found": found,
            "own": own,
            "own_on_page": own is not None and page.start_index() <= own.rank <= page.end_index(),
        },
    )
