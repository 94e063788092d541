"""The rematch of a finished match: offered by one player, accepted by the other, it starts a new
match with the same settings (docs/protocol.md `rematch`).

Accepting starts a match, so it is one start like any other (games/services/starts.py): both
players' start locks before the match row, `in_a_match` when either is playing another match,
their other open challenges and pool waits ended. Against the computer the bot answers a
person's offer at once, inside the person's command: no offer stands for the bot to answer, so
offering and withdrawing again and again queues no bot work, and every rematch passes the same
one-match check (games/services/bots.py offers the bot's own rematch).
"""

from __future__ import annotations

from django.db import transaction

from games.fairness import new_client_seed, new_server_seed
from games.models import Match
from games.services.context import Locked
from games.services.lifecycle import client_seed_or_new
from games.services.runners import locked
from games.services.starts import (
    match_new,
    match_started,
    people_of,
    players_lock,
    refuse_start,
)
from moderation.eligibility import refuse_if_banned, refuse_if_blocked
from nardy import match as engine


def match_rematch_offer(*, user, match_id: int, client_seed: str | None = None) -> Match:
    """Offer a rematch, or accept the opponent's offer (a new match, same settings, both
    players seated, opening roll at once; its id is `match.rematch_id`); the computer accepts a
    person's offer at once. Each player's ``client_seed`` comes with their command; the
    rematch's server seed is drawn with the offer and its hash published then, before the
    accepting player's seed exists (games/fairness). Which it is, who sits where and with which
    seeds is the engine's (``engine.rematch_terms``). Takes the people's start locks, then locks
    the match row."""
    seed = client_seed_or_new(client_seed)
    with transaction.atomic():
        people = people_of(match_id)
        players_lock(people)  # accepting starts a match (games/services/starts.py)
        context = locked(match_id)
        match = context.match
        seat = context.seat_of(user)
        terms = context.ask(
            lambda state: engine.rematch_terms(
                state, seat=seat, client_seed=seed, fresh_client_seed=new_client_seed(),
                fresh_server_seed=new_server_seed(), bot_seat=rematch_bot_seat(context),
            )
        )  # fmt: skip
        refuse_if_banned(user)
        refuse_if_blocked(match.creator_id, match.opponent_id)  # type: ignore[arg-type]
        if terms is None:
            context.run(
                lambda state: engine.offer_rematch(
                    state, seat=seat, client_seed=seed, server_seed=new_server_seed()
                )
            )
            context.save()
            return match
        refuse_start(match, people, asking=user.pk)
        rematch = match_new(
            seats=(match.player_id(terms.creator_seat), match.player_id(1 - terms.creator_seat)),  # type: ignore[arg-type]
            rule_set_name=match.rule_set_name, rules=match.rules, rated=match.rated,
            turn_seconds=match.turn_seconds, reserve_seconds=match.reserve_seconds,
            time_control=match.time_control, move_days=match.move_days,
            client_seeds=terms.client_seeds,
            server_seed=terms.server_seed,
        )  # fmt: skip
        context.run(
            lambda state: engine.accept_rematch(
                state, seat=seat, terms=terms, match_id=rematch.match.pk
            )
        )
        context.save()
        match_started(rematch, people)
    return match


def rematch_bot_seat(context: Locked) -> int | None:
    """The seat of the computer in a match against it; None between two people."""
    return next((seat for seat in (0, 1) if context.plays_bot(seat)), None)


def match_rematch_decline(*, user, match_id: int) -> Match:
    """Decline the opponent's rematch offer, or withdraw one's own. Locks the match row."""
    with transaction.atomic():
        context = locked(match_id)
        seat = context.seat_of(user)
        context.run(lambda state: engine.decline_rematch(state, seat=seat))
        context.save()
    return context.match
