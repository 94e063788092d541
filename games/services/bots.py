"""Playing the computer: a match against a bot account, and the bot's own moves.

Bots are real accounts (`User.is_bot`, one per level of nardy/bots.py) and act through the
same engine operations as people, one step per Celery task (games/tasks.py `bot_act`, on the bots'
own queue so it never delays a deadline), scheduled after commit by `Locked.save` whenever a bot
is to move or to offer a rematch, with a short pause (`BOT_STEP_SECONDS`, longer before a turn's
first step: `BOT_THINK_SECONDS`). Each command locks the Match row and does nothing when the match
has moved on since it was scheduled (its version). A person's rematch offer is accepted at once
by games/services/rematch.py, so no offer waits for a bot task.

One match at a time per person, the computer's included: every start goes through
games/services/starts.py (a new match here, or a rematch).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import lru_cache

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.fairness import new_client_seed, new_server_seed
from games.models import Game, Match, MatchStatus, Phase
from games.next_seed import take_next_seed
from games.services.bot_turns import bot_seat
from games.services.lifecycle import chosen_rules, client_seed_or_new
from games.services.runners import locked
from games.services.starts import match_new, match_started, players_lock, refuse_if_playing
from nardy import Board, RuleSet, Side, StepSequence, choose_rest_of_turn, net
from nardy import match as engine
from nardy.bots import EXPERT, LEVELS, choose_bot_turn
from realtime.errors import CommandError

logger = logging.getLogger(__name__)

BOT_NAMES = {
    "beginner": "Bot-Beginner", "club": "Bot-Club", "master": "Bot-Master", "expert": "Bot-Expert",
}  # fmt: skip


def bot_account(level: str):
    """The bot account of a level (created on first use; accounts/migrations/0005 makes them)."""
    if level not in LEVELS:
        raise CommandError("bad_field", _("Choose one of the computer's levels."))
    username = BOT_NAMES[level]
    defaults = {
        "username": username, "email": f"{username.lower()}@bots.invalid",
        "password": "!bot-accounts-never-log-in", "auto_roll": True,
    }  # fmt: skip
    try:
        with transaction.atomic():
            bot, _created = User.objects.get_or_create(
                is_bot=True, bot_level=level, defaults=defaults
            )
    except IntegrityError:  # created by a concurrent request
        bot = User.objects.get(is_bot=True, bot_level=level)
    return bot


def match_create_vs_bot(
    *,
    user,
    level: str,
    rule_set_name: str = "traditional",
    length: int | None = None,
    turn_seconds: int | None = 60,
    reserve_seconds: int = 0,
    rated: bool = False,
    head_exception: str | None = None,
    opening: str | None = None,
    client_seed: str | None = None,
) -> Match:
    """A match against the bot of ``level``, started at once (casual unless ``rated``; guests
    play casual only). One unfinished match against the computer per player, and no other match
    meanwhile (games/services/starts.py). Takes the player's start lock, then the new match
    row. ``client_seed`` is the person's browser's (games/fairness); the bot's is drawn by the
    server (it has no browser). The server seed is the one the person's page committed to before
    the form was sent (games/next_seed.py)."""
    if user.is_bot:
        raise CommandError("not_a_player", _("Bots do not challenge each other here."))
    if rated and not user.may_play_rated:
        raise CommandError("guest_not_rated", _("Guests play casual games; sign up to play rated."))
    rules = chosen_rules(
        rule_set_name, length=length, head_exception=head_exception, opening=opening,
        rated=rated, turn_seconds=turn_seconds,
    )  # fmt: skip
    seed = client_seed_or_new(client_seed)
    bot = bot_account(level)
    if level == EXPERT and (why := net.available()) is not None:
        # The learned evaluation's weights are missing or damaged (nardy/net.py): the level
        # does not start rather than play on another evaluation in its name.
        logger.error("the Expert level cannot start: %s", why)
        raise CommandError(
            "bot_unavailable", _("The Expert level is not available right now; choose another.")
        )
    with transaction.atomic():
        players_lock([user.pk])  # one start at a time (starts.py)
        playing = Match.objects.filter(
            Q(creator=user, opponent__is_bot=True) | Q(opponent=user, creator__is_bot=True),
            status__in=[MatchStatus.OPEN, MatchStatus.ACTIVE],
        ).first()
        if playing is not None:
            raise CommandError(
                "already_playing_bot",
                _("You are already playing the computer (match #%(id)s): finish it first.")
                % {"id": playing.pk},
            )
        refuse_if_playing([user.pk])
        context = match_new(
            seats=(user.pk, bot.pk), rule_set_name=rule_set_name, rules=rules, rated=rated,
            turn_seconds=turn_seconds, reserve_seconds=reserve_seconds,
            client_seeds=(seed, new_client_seed()),
            server_seed=take_next_seed(user.pk),  # committed on the page before the form was sent
        )  # fmt: skip
        match_started(context, [user.pk])
    return context.match


def turn_seed(match_id: int, game_number: int, turn_number: int) -> int:
    """The seed of a bot's turn: the same for every worker process and retry."""
    return (match_id * 1_000_003 + game_number) * 10_007 + turn_number


@lru_cache(maxsize=256)
def _planned_turn(
    level: str, board: Board, side: Side, dice: tuple[int, int], first_turn: bool,
    rules: RuleSet, seed: int,
) -> StepSequence:  # fmt: skip
    """The bot's whole turn, chosen once per turn and process (the engine is deterministic for
    the seed, so any worker process plans the same turn)."""
    return choose_bot_turn(level, board, side, dice, first_turn, rules, seed=seed)


def bot_act(*, match_id: int, version: int) -> None:
    """The bot does its next thing in this match: roll, play one step of its planned turn, or
    offer a rematch. Locks the match row; does nothing when the version has moved on or it is
    not the bot's to act."""
    with transaction.atomic():
        try:
            context = locked(match_id)
        except CommandError:
            return  # the match is gone
        seat = bot_seat(context.match, context.game, context.bot_levels)
        if seat is None or context.match.version != version:
            return
        bot_id = context.match.player_id(seat)
        if context.match.status == MatchStatus.FINISHED:
            # An offer starts nothing: the person's acceptance is the start (rematch.py).
            context.run(
                lambda state: engine.offer_rematch(
                    state, seat=seat, client_seed=new_client_seed(), server_seed=new_server_seed()
                )
            )
            context.save()
            return
        game = context.game
        # The person's standing choices (roll for me, play forced turns) apply once the bot's
        # turn passes to them, as after any opponent's turn.
        automation = context.automation()
        if game.phase == Phase.ROLL:
            context.run(
                lambda state: engine.roll(
                    state, seat=seat, dice=context.dice, now=context.now, **automation
                )
            )
        else:
            turn = context.state.turn_state()
            plan = _planned_turn(
                context.bot_levels[bot_id], turn.start_board, turn.side, turn.dice,
                turn.first_turn, turn.rules, turn_seed(match_id, game.number, game.turn_number),
            )  # fmt: skip
            played = len(turn.steps)
            if tuple(plan[:played]) != tuple(turn.steps) or played >= len(plan):
                plan = choose_rest_of_turn(turn)  # cannot happen: only the bot moves
                played = 0
            step = plan[played]
            context.run(
                lambda state: engine.step(
                    state, seat=seat, step=step, dice=context.dice, now=context.now,
                    **automation,
                )
            )  # fmt: skip
        context.save()


# A bot's turn takes seconds; one still to move after this long lost its task (a worker killed
# with SIGKILL keeps it unacknowledged for the broker's visibility timeout, as for deadlines).
STUCK_AFTER = timedelta(seconds=30)


def bots_nudge_stuck(*, limit: int = 200) -> int:
    """Let every bot act whose turn began STUCK_AFTER ago and is still open (an untimed match
    has no deadline to rescue it). Each goes through `bot_act` at the match's current version,
    so a bot whose task is merely late acts once either way. Returns how many were nudged."""
    mover_is_creator = Q(turn="w", white_seat=0) | Q(turn="b", white_seat=1)
    stuck = Game.objects.filter(
        (mover_is_creator & Q(match__creator__is_bot=True))
        | (~mover_is_creator & Q(match__opponent__is_bot=True)),
        phase__in=[Phase.ROLL, Phase.MOVE],
        match__status=MatchStatus.ACTIVE,
        turn_started_at__lt=timezone.now() - STUCK_AFTER,
    ).values_list("match_id", "match__version")[:limit]
    for match_id, version in stuck:
        bot_act(match_id=match_id, version=version)
    return len(stuck)
