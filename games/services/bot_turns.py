"""Which bot is to act in a match now, and after what pause: read from the rows, nothing locked or
written. The write path asks after each save (games/services/context.py schedules the bot's task
after commit); the task acts (games/services/bots.py `bot_act`)."""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings

from games.models import EndReason, Game, Match, MatchStatus, Phase


def bot_seat(match: Match, game: Game | None, bot_levels: Mapping[int, str]) -> int | None:
    """The seat of the bot that is to act in this match now, if any (`bot_levels`: the bots
    among the players, by user id)."""
    if match.status == MatchStatus.ACTIVE and game is not None and game.phase != Phase.OVER:
        seat = game.seat_of_side(game.turn)
        return seat if match.player_id(seat) in bot_levels else None
    if rematch_due(match, bot_levels):
        return next(seat for seat in (0, 1) if match.player_id(seat) in bot_levels)
    return None


def rematch_due(match: Match, bot_levels: Mapping[int, str]) -> bool:
    """A finished match with a bot in it, no rematch yet, none declined and none offered: the
    bot offers one. (A person's offer never waits for the bot: games/services/rematch.py accepts
    it at once.)"""
    if match.status != MatchStatus.FINISHED or match.end_reason == EndReason.ABORTED:
        return False
    if match.rematch_id is not None or match.rematch_declined:
        return False
    bots = [seat for seat in (0, 1) if match.player_id(seat) in bot_levels]
    return len(bots) == 1 and match.rematch_offered_by is None


def bot_pause(game: Game | None) -> float:
    """Seconds the bot waits before acting: longer before the first step of a turn."""
    if game is not None and game.phase == Phase.MOVE and game.steps:
        return settings.BOT_STEP_SECONDS
    return settings.BOT_THINK_SECONDS
