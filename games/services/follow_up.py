"""What a match command leaves for after its commit (games/effects.py): its events, whether the
lobby changed, the new turn's deadline, the bot's next act, a start's reconnect windows and an
ending's hook. Read from the saved rows, nothing
written; `Locked.save` hands the result to `games.effects.on_commit`."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from games.effects import Began, BotTurn, Deadline, Effects, Finished, TurnDue
from games.models import Game, Match
from games.services.bot_turns import bot_pause, bot_seat


def clock_seat(game: Game) -> int:
    """The seat whose clock runs: the answerer's while a double is offered, else the mover's
    (nardy/match, GameState.clock_seat, read from the row)."""
    if game.cube_offer is not None:
        return 1 - game.cube_offer
    return game.seat_of_side(game.turn)


def command_effects(
    *, match: Match, game: Game | None, events: list[dict[str, Any]], lobby_changed: bool,
    turn: tuple[int, int] | None, turn_at_start: tuple[int, int] | None,
    deadline_at_start: datetime | None, bot_levels: Mapping[int, str], began: bool = False,
    finished: bool = False,
) -> Effects:  # fmt: skip
    """`turn` is the open turn now (game id, turn number), `*_at_start` as the command found
    them; `bot_levels` the bots among the players, by user id; `began`: game 1 started in the
    command, `finished`: the match ended with a result in it."""
    effects = Effects(events={match.pk: events} if events else {}, lobby_changed=lobby_changed)
    if began and match.started_at is not None and not match.correspondence:
        # (Nobody sits at a correspondence table: no reconnect window, docs/rules.md.)
        effects.began.append(Began(match.pk, match.started_at))
    if finished:
        effects.finished.append(Finished(match.pk, match.rated))
    deadline = game.turn_deadline if game is not None else None
    # A new turn, or a new clock in the same turn (a cube offer or its answer): docs/rules.md,
    # Platform rules, Timed play.
    moved = (turn, deadline) != (turn_at_start, deadline_at_start)
    if turn is not None and moved and deadline is not None:
        if match.correspondence:
            # Days ahead: the beat's sweep of the indexed deadlines enforces it (games/tasks.py),
            # and the player whose clock now runs hears of it (games/hooks.py).
            user_id = match.player_id(clock_seat(game))  # type: ignore[arg-type]
            if user_id is not None:
                effects.turns_due.append(TurnDue(match.pk, user_id, deadline))
        else:
            effects.deadlines.append(Deadline(match.pk, *turn, deadline))
    # A bot is to move or to offer a rematch: its task, after a human-like pause.
    if bot_levels and bot_seat(match, game, bot_levels) is not None:
        effects.bot_turns.append(BotTurn(match.pk, match.version, bot_pause(game)))
    return effects
