"""Celery tasks of the ratings: thin, they call selectors (docs/architecture.md "How code is shaped
here").

- `refresh_boards` runs from beat every BOARD_COUNT_SECONDS and lists each leaderboard's page
  starts again (ratings.selectors.Board.refresh_page_starts), and the provisional players shown
  beside the rating board (ratings.selectors.provisional_players_refresh), so no page view runs
  those passes.
"""

from __future__ import annotations

from celery import shared_task

from ratings.selectors import BOARDS, provisional_players_refresh


@shared_task(name="ratings.refresh_boards", ignore_result=True)
def refresh_boards() -> int:
    for board in BOARDS.values():
        board.refresh_page_starts()
    provisional_players_refresh()
    return len(BOARDS)
