"""What the home page shows: the viewer's match in progress (resume), the one-click match against
the computer with its committed server seed (games/next_seed.py)."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import BotLevel
from games.next_seed import next_seed_commitment
from games.selectors import player_open_match

# The one-click match against the computer: the gentlest bot, the Traditional preset's one
# point, a turn clock, casual (the page states these figures from here).
QUICK_COMPUTER = {"level": BotLevel.BEGINNER, "rule_set_name": "traditional", "turn_seconds": 60}


def home_context(request: HttpRequest) -> dict:
    user = request.user if request.user.is_authenticated else None
    return {
        "current": player_open_match(user) if user is not None else None,
        # Fair dice: the next match's server seed is drawn before the player clicks.
        "next_seed_hash": next_seed_commitment(user.pk) if user is not None else None,
        "quick_computer": QUICK_COMPUTER,
    }
