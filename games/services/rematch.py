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
from django.utils.translation import gettext as _

from games.fairness import new_client_seed, new_server_seed
from games.models import EndReason, Match, MatchStatus, rule_columns
from games.services.context import Locked, locked
from games.services.lifecycle import begin_first_game, client_seed_or_new
from games.services.starts import match_started, people_of, players_lock, refuse_if_playing
from moderation.eligibility import refuse_if_banned, refuse_if_blocked
from realtime.errors import CommandError


def match_rematch_offer(*, user, match_id: int, client_seed: str | None = None) -> Match:
    """Offer a rematch, or accept the opponent's offer (a new match, same settings, both
    players seated, opening roll at once; its id is `match.rematch_id`); the computer accepts a
    person's offer at once. Each player's ``client_seed`` comes with their command; the
    rematch's server seed is drawn with the offer and its hash published then, before the
    accepting player's seed exists (games/fairness). Takes the people's start locks, then locks
    the match row."""
    seed = client_seed_or_new(client_seed)
    with transaction.atomic():
        people = people_of(match_id)
        players_lock(people)  # accepting starts a match (games/services/starts.py)
        context = locked(match_id)
        match = context.match
        seat = context.seat_of(user)
        if match.status != MatchStatus.FINISHED or match.end_reason == EndReason.ABORTED:
            raise CommandError("match_not_finished", _("A rematch is offered after the match."))
        if match.rematch_id is not None:
            raise CommandError("match_not_finished", _("The rematch has already started."))
        refuse_if_banned(user)
        refuse_if_blocked(match.creator_id, match.opponent_id)  # type: ignore[arg-type]
        bot_seat = rematch_bot_seat(context)
        if match.rematch_offered_by == 1 - seat:  # the opponent offered: accepted
            accepting_seat, seeds = seat, (seed, match.rematch_client_seed or new_client_seed())
            server_seed = match.rematch_server_seed or new_server_seed()
        elif bot_seat is not None:  # a person offers the computer: it accepts at once
            accepting_seat, seeds = bot_seat, (new_client_seed(), seed)
            server_seed = new_server_seed()
        else:
            match_rematch_record_offer(context, seat=seat, client_seed=seed)
            context.save()
            return match
        refuse_if_playing(people, asking=user.pk)
        new_match = Match.objects.create(
            creator_id=match.player_id(accepting_seat),
            opponent_id=match.player_id(1 - accepting_seat),
            private=True,
            rule_set_name=match.rule_set_name,
            turn_seconds=match.turn_seconds,
            reserve_seconds=match.reserve_seconds,
            time_control=match.time_control,
            rated=match.rated,
            client_seed_creator=seeds[0],
            client_seed_opponent=seeds[1],
            server_seed=server_seed,
            **rule_columns(match.rules),
        )
        rematch = locked(new_match.pk)
        begin_first_game(rematch)
        rematch.save()
        match.rematch = new_match
        match.rematch_offered_by = None
        match.rematch_client_seed = match.rematch_server_seed = ""
        context.record("rematch", {"match_id": new_match.pk})
        context.save()
        match_started(rematch, people)
    return match


def rematch_bot_seat(context: Locked) -> int | None:
    """The seat of the computer in a match against it; None between two people."""
    match = context.match
    return next((seat for seat in (0, 1) if match.player_id(seat) in context.bot_levels), None)


def match_rematch_record_offer(context: Locked, *, seat: int, client_seed: str) -> None:
    """Record `seat`'s rematch offer on the locked finished match (a person's through
    `match_rematch_offer`, the computer's from games/services/bots.py); the caller saves."""
    match = context.match
    match.rematch_offered_by = seat
    match.rematch_client_seed = client_seed
    match.rematch_server_seed = match.rematch_server_seed or new_server_seed()
    match.rematch_declined = False
    context.record("rematch", {"offered_by": seat})


def match_rematch_decline(*, user, match_id: int) -> Match:
    """Decline the opponent's rematch offer, or withdraw one's own. Locks the match row."""
    with transaction.atomic():
        context = locked(match_id)
        seat = context.seat_of(user)
        match = context.match
        if match.rematch_offered_by is None:
            raise CommandError("match_not_finished", _("There is no rematch offer."))
        match.rematch_offered_by = None
        match.rematch_client_seed = match.rematch_server_seed = ""
        match.rematch_declined = True
        context.record("rematch", {"declined_by": seat})
        context.save()
    return match
