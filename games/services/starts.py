"""Starting a match: one match at a time per player, and the one builder of a started match.

`match_new(...)` writes the Match row of a match whose two seats are known (a pool pairing, a
rematch, a match against the computer), locks it, lets the engine `begin` game 1 and saves; an
accepted challenge is seated by `engine.accept`, then begun the same way (`begin_first_game`).

Every path that seats players in a starting match — `match_accept`, `match_start_paired` (a pool
pairing), the rematch, `match_create_vs_bot` — does, inside its transaction:

1. `players_lock(ids)`: a start lock per person (a PostgreSQL advisory lock), ascending, taken
   before any match row is locked. Two tabs of one player accepting two challenges at once queue
   here, and the second finds the first's match.
2. `refuse_if_playing(ids)`: `in_a_match` when one of them is already playing a match.
3. `match_started(context, ids)`: once the match has begun, each player's other open challenges
   are cancelled, and after commit `games.hooks.match_started` is sent (pairing ends their
   pool waits: pairing/hook_answers.py).

Lock order: pairing's player lock (a pool join) → a pool's lock → pool entries (pairing/locks.py)
→ these start locks → match rows. Nothing that holds a match row takes a start lock, and nothing
that holds a start lock waits for a pool: pairing hears of the start after commit. Bots are left
out: the computer plays any number of people at once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from django.db import connection, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games.hooks import match_started as match_started_signal
from games.models import Match, MatchStatus, TimeControl, rule_columns
from games.rules import RuleSet
from games.rules import match as engine
from games.services.context import Locked, locked
from realtime.errors import CommandError
from realtime.groups import notify_user

log = logging.getLogger(__name__)

# Advisory lock class of the players' match starts (pairing/locks.py has 15_001 and 15_002); the
# second key is the user id, folded into PostgreSQL's int4 (a collision only makes two starts
# wait in turn).
PLAYER_LOCK_CLASS = 25_001
INT4 = 2**31


def people_of(match_id: int, *also: int) -> list[int]:
    """The people seated in a match (bots left out), and `also`: read without a lock, to know
    whose locks to take before the match row's (a seated player never changes)."""
    row = (
        Match.objects.filter(pk=match_id)
        .values_list("creator_id", "creator__is_bot", "opponent_id", "opponent__is_bot")
        .first()
    )
    people = set(also)
    if row is not None:
        creator_id, creator_is_bot, opponent_id, opponent_is_bot = row
        people |= {creator_id} if not creator_is_bot else set()
        people |= {opponent_id} if opponent_id is not None and not opponent_is_bot else set()
    return sorted(people)


def players_lock(user_ids: Iterable[int]) -> None:
    """Serialise the match starts of these players until the transaction ends (ascending order,
    so two starts sharing players never wait for each other in a circle)."""
    with connection.cursor() as cursor:
        for user_id in sorted(set(user_ids)):
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", [PLAYER_LOCK_CLASS, user_id % INT4]
            )


def refuse_if_playing(user_ids: Sequence[int], *, asking: int | None = None) -> None:
    """`in_a_match` when one of these players is playing a match now (call under their
    `players_lock`); the message says whether it is the player `asking` or the other one."""
    ids = set(user_ids)
    seated = Match.objects.filter(
        Q(creator_id__in=ids) | Q(opponent_id__in=ids), status=MatchStatus.ACTIVE
    ).values_list("creator_id", "opponent_id")
    busy = {player for pair in seated for player in pair} & ids
    if not busy:
        return
    if asking is None or asking in busy:
        raise CommandError("in_a_match", _("Finish your match in progress first."))
    raise CommandError("in_a_match", _("Your opponent is playing another match now."))


def match_new(
    *, seats: tuple[int, int], rule_set_name: str, rules: RuleSet, rated: bool,
    turn_seconds: int | None, client_seeds: tuple[str, str], server_seed: str,
    reserve_seconds: int = 0, time_control: str = TimeControl.TURN,
) -> Locked:  # fmt: skip
    """A new private match between the players of ``seats`` (user ids, seat 0 first), with the
    rules and clock given and its dice's seeds (games/fairness), begun at once: the row written,
    locked, game 1 started by the engine, saved. Call under the players' `players_lock`, after
    `refuse_if_playing`; `match_started` follows."""
    match = Match.objects.create(
        creator_id=seats[0], opponent_id=seats[1], private=True, rule_set_name=rule_set_name,
        turn_seconds=turn_seconds or None, reserve_seconds=reserve_seconds,
        time_control=time_control, rated=rated, client_seed_creator=client_seeds[0],
        client_seed_opponent=client_seeds[1], server_seed=server_seed, **rule_columns(rules),
    )  # fmt: skip
    context = locked(match.pk)
    begin_first_game(context)
    context.save()
    return context


def begin_first_game(context: Locked) -> None:
    """Both seats are filled: the engine begins game 1 with the opening roll. After the commit,
    the reconnect window starts for a seat with no socket (games/presence.py, through the
    command's effects: games/effects.py)."""
    context.run(
        lambda state: engine.begin(
            state, dice=context.dice, now=context.now, **context.automation()
        )
    )


def match_started(context: Locked, people: Sequence[int]) -> None:
    """The match of `context` has just begun, under `players_lock(people)`: cancel the players'
    other open challenges (locking each row in turn) and announce the start after commit."""
    started_id = context.match.pk
    others = (
        Match.objects.filter(creator_id__in=people, status=MatchStatus.OPEN)
        .exclude(pk=started_id)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for match_id in list(others):
        other = locked(match_id)
        if other.match.status != MatchStatus.OPEN:
            continue  # withdrawn or expired while we waited for its lock
        now = other.now
        other.run(lambda state, now=now: engine.cancel(state, now=now))
        other.save()
        if other.match.invited_id is not None:  # the site socket's list of direct challenges
            notify_user(other.match.invited_id, {"type": "challenge_gone", "match_id": match_id})
    if context.match.invited_id is not None:  # accepted: out of the invited's other pages too
        notify_user(context.match.invited_id, {"type": "challenge_gone", "match_id": started_id})
    player_ids = tuple(people)
    transaction.on_commit(lambda: _announce(started_id, player_ids))


def _announce(match_id: int, player_ids: tuple[int, ...]) -> None:
    """Tell the apps above (games/hooks.py); one failing receiver does not stop the others,
    and the match has started whatever they do."""
    answers = match_started_signal.send_robust(
        sender=Match, match_id=match_id, player_ids=player_ids
    )
    for receiver, answer in answers:
        if isinstance(answer, Exception):
            log.error(
                "a match_started receiver (%s) failed for match %s",
                getattr(receiver, "__qualname__", receiver), match_id, exc_info=answer,
            )  # fmt: skip
