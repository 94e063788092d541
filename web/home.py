"""What the home page shows, the place a player starts from: the viewer's match in progress
(resume), the correspondence turns waiting for them ("Your turn"), the quick-pairing tiles of
the Play page, the one-click match against the computer with
its committed server seed (games/next_seed.py), the live matches as small live boards with the
players online (games/live_boards.py, moved on by the lobby socket), the players the viewer
follows who are playing now (friends/selectors.py), and the top of the rating board."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import BotLevel
from friends.selectors import friends_playing
from games.correspondence_list import your_turn_rows
from games.live_boards import latest as live_boards
from games.next_seed import next_seed_commitment
from games.selectors import player_open_match
from pairing.selectors import play_page_pairing
from ratings.selectors import leaders

# The one-click match against the computer: the gentlest bot, the Traditional preset's one
# point, a turn clock, casual (the page states these figures from here).
QUICK_COMPUTER = {"level": BotLevel.BEGINNER, "rule_set_name": "traditional", "turn_seconds": 60}
LEADERS_SHOWN = 5


def home_context(request: HttpRequest) -> dict:
    user = request.user if request.user.is_authenticated else None
    return {
        "current": player_open_match(user) if user is not None else None,
        # The correspondence turns waiting for the player, the nearest deadline first.
        "your_turn": your_turn_rows(user) if user is not None else [],
        # Fair dice: the next match's server seed is drawn before the player clicks.
        "next_seed_hash": next_seed_commitment(user.pk) if user is not None else None,
        "quick_computer": QUICK_COMPUTER,
        "pairing": play_page_pairing(user),
        "live": live_boards(),
        "leaders": leaders(LEADERS_SHOWN),
        "friends_playing": friends_playing(user) if user is not None else [],
    }
