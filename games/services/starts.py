"""Starting a match: one match at a time per player, and the one builder of a started match.

`match_new(...)` writes the Match row of a match whose two seats are known (a pool pairing, a
rematch, a match against the computer), lets the engine `begin` game 1 and saves; an accepted
challenge is seated by `engine.accept`, then begun the same way (`begin_first_game`).
`matches_start_many(...)` does all of the below for many matches at once, each step one
statement for them all (a tournament's pairing wave: tournaments/services/pairing.py);
`match_new` is `matches_new` of one.

Every path that seats players in a starting match — `match_accept`, `match_start_paired` (a pool
pairing), the rematch, `match_create_vs_bot` — does, inside its transaction:

1. `players_lock(ids)`: a start lock per person (a PostgreSQL advisory lock), ascending, taken
   before any match row is locked (one statement however many). Two tabs of one player
   accepting two challenges at once queue here, and the second finds the first's match.
2. `refuse_if_playing(ids)`: `in_a_match` when one of them is already playing a match.
3. `match_started(context, ids)`: once the match has begun, each player's other open challenges
   are cancelled, and after commit `games.hooks.match_started` is sent (pairing ends their
   pool waits: pairing/hook_answers.py).

A correspondence match (docs/rules.md, Platform rules, Correspondence) is played over days beside
any number of others and of live play: step 2 is `refuse_past_correspondence_limit` instead (at
most CORRESPONDENCE_MATCHES_MAX open per player), and its start cancels nothing and ends no pool
wait (`refuse_start` and `matches_started` choose by the match's clock).

Lock order: pairing's player lock (a pool join) → a pool's lock → pool entries (pairing/locks.py),
or a tournament's lock → its Player rows (tournaments/locks.py) → these start locks → match rows.
Nothing that holds a match row takes a start lock, and nothing that holds a start lock waits for a
pool: pairing hears of the start after commit. Bots are left out: the computer plays any number of
people at once.

A start also waits for rows it never locks: its commit checks the foreign keys of the rows it
wrote (Django declares them deferred to the commit), with a key-share lock on each row they name,
above all both players' user rows, and that waits for whoever holds one of those rows FOR UPDATE.
So whatever takes start locks, or waits for them (a pairing wave holding its tournament's Player
rows), never holds a user row FOR UPDATE: a `select_for_update` that joins the users locks its
own table alone (`of=("self",)`). A wave that locked its players' user rows through that join
waited for an accept's start lock while the accept, holding it, waited at its commit for the
key-share lock on the accepting player's user row, and PostgreSQL ended one of the two as a
deadlock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from config.hooks import send_to_all
from games.hooks import match_started as match_started_signal
from games.models import Match, MatchStatus, TimeControl, rule_columns
from games.services.context import Locked, context_of, save_all
from games.services.hot_path import PLAYER_FIELDS, Player
from games.services.runners import locked
from nardy import RuleSet
from nardy import match as engine
from realtime.errors import CommandError
from realtime.groups import notify_user

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
    """Serialise the match starts of these players until the transaction ends: one statement
    for any number of them, the locks taken in ascending order of their keys (`unnest` reads an
    array out in its order, PostgreSQL "Array Functions"), so two starts sharing players never
    wait for each other in a circle."""
    keys = sorted({user_id % INT4 for user_id in user_ids})
    if not keys:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, key) FROM unnest(%s::int[]) AS key",
            [PLAYER_LOCK_CLASS, keys],
        )


def playing_now(user_ids: Iterable[int]) -> set[int]:
    """Those of these players who are playing a match now (one read; under their `players_lock`
    the answer holds until the transaction ends)."""
    ids = set(user_ids)
    seated = (
        Match.objects.filter(
            Q(creator_id__in=ids) | Q(opponent_id__in=ids), status=MatchStatus.ACTIVE
        )
        .exclude(time_control=TimeControl.CORRESPONDENCE)
        .values_list("creator_id", "opponent_id")
    )
    return {player for pair in seated for player in pair} & ids


def refuse_if_playing(user_ids: Sequence[int], *, asking: int | None = None) -> None:
    """`in_a_match` when one of these players is playing a match now (call under their
    `players_lock`); the message says whether it is the player `asking` or the other one."""
    busy = playing_now(user_ids)
    if not busy:
        return
    if asking is None or asking in busy:
        raise CommandError("in_a_match", _("Finish your match in progress first."))
    raise CommandError("in_a_match", _("Your opponent is playing another match now."))


def correspondence_open_count(user_id: int, *, excluding: int | None = None) -> int:
    """The player's correspondence matches being played and correspondence challenges they
    offer (the two partial indexes of games/models/match.py), but the match `excluding`."""
    seated = Match.objects.filter(
        time_control=TimeControl.CORRESPONDENCE, status=MatchStatus.ACTIVE, opponent_id=user_id
    )
    created = Match.objects.filter(
        time_control=TimeControl.CORRESPONDENCE,
        status__in=[MatchStatus.OPEN, MatchStatus.ACTIVE],
        creator_id=user_id,
    )
    return seated.exclude(pk=excluding).count() + created.exclude(pk=excluding).count()


def refuse_past_correspondence_limit(
    user_ids: Sequence[int], *, asking: int | None = None, excluding: int | None = None
) -> None:
    """`too_many_correspondence` when one more would take one of these players past
    CORRESPONDENCE_MATCHES_MAX, the match `excluding` (the challenge being accepted) not counted
    (call under their `players_lock` for a start: then the count holds until the transaction
    ends)."""
    limit = settings.CORRESPONDENCE_MATCHES_MAX
    for user_id in user_ids:
        if correspondence_open_count(user_id, excluding=excluding) + 1 > limit:
            if asking is None or asking == user_id:
                message = _(
                    "Open correspondence matches are limited to %(count)s: finish some of them "
                    "first."
                )
            else:
                message = _(
                    "Your opponent has reached the limit of open correspondence matches "
                    "(%(count)s)."
                )
            raise CommandError("too_many_correspondence", message % {"count": limit})


def refuse_start(match: Match, user_ids: Sequence[int], *, asking: int | None = None) -> None:
    """The start check of a match's clock: one live match at a time, or the correspondence
    limit (the module's docstring)."""
    if match.correspondence:
        refuse_past_correspondence_limit(user_ids, asking=asking, excluding=match.pk)
    else:
        refuse_if_playing(user_ids, asking=asking)


@dataclass(frozen=True)
class NewMatch:
    """A private match to begin between the players of ``seats`` (user ids, seat 0 first), with
    its rules and clock and its dice's seeds (games/fairness)."""

    seats: tuple[int, int]
    rule_set_name: str
    rules: RuleSet
    rated: bool
    turn_seconds: int | None
    client_seeds: tuple[str, str]
    server_seed: str
    reserve_seconds: int = 0
    time_control: str = TimeControl.TURN
    move_days: int | None = None

    def row(self, match_id: int) -> Match:
        return Match(
            id=match_id, creator_id=self.seats[0], opponent_id=self.seats[1], private=True,
            rule_set_name=self.rule_set_name, turn_seconds=self.turn_seconds or None,
            reserve_seconds=self.reserve_seconds, time_control=self.time_control,
            move_days=self.move_days,
            rated=self.rated, client_seed_creator=self.client_seeds[0],
            client_seed_opponent=self.client_seeds[1], server_seed=self.server_seed,
            # Every column given, none left to its database default: a wave's rows then go as
            # one array per column (Django's UNNEST insert on PostgreSQL), not a placeholder per
            # value.
            rematch_client_seed="", rematch_server_seed="", **rule_columns(self.rules),
        )  # fmt: skip


def match_new(
    *, seats: tuple[int, int], rule_set_name: str, rules: RuleSet, rated: bool,
    turn_seconds: int | None, client_seeds: tuple[str, str], server_seed: str,
    reserve_seconds: int = 0, time_control: str = TimeControl.TURN, move_days: int | None = None,
) -> Locked:  # fmt: skip
    """A new private match between the players of ``seats`` (user ids, seat 0 first), with the
    rules and clock given and its dice's seeds (games/fairness), begun at once (`matches_new`
    of one). Call under the players' `players_lock`, after `refuse_if_playing`; `match_started`
    follows."""
    (context,) = matches_new(
        [
            NewMatch(
                seats=seats, rule_set_name=rule_set_name, rules=rules, rated=rated,
                turn_seconds=turn_seconds, client_seeds=client_seeds, server_seed=server_seed,
                reserve_seconds=reserve_seconds, time_control=time_control,
                move_days=move_days,
            )
        ]
    )  # fmt: skip
    return context


def matches_new(news: Sequence[NewMatch]) -> list[Locked]:
    """New matches, begun at once: each match's id drawn, game 1 begun by the engine, then the
    rows written, all matches in one INSERT, all games in another (`save_all`); their contexts,
    in the order given. Call under the players' `players_lock`, after `refuse_if_playing`;
    `matches_started` follows. The new rows need no row lock: no other transaction sees them
    before this one commits."""
    if not news:
        return []
    players = _players_of({seat for new in news for seat in new.seats})
    contexts = []
    for new, match_id in zip(news, _new_match_ids(len(news)), strict=True):
        creator, opponent = (players[seat] for seat in new.seats)
        contexts.append(context_of(new.row(match_id), None, [creator, opponent], inserting=True))
    for context in contexts:
        begin_first_game(context)
    save_all(contexts)
    return contexts


def _new_match_ids(count: int) -> list[int]:
    """Ids for new Match rows from the table's own sequence: the engine begins a match before
    its row is written, and the events it leaves name the match."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [Match._meta.db_table, Match._meta.pk.column, count],
        )
        return [match_id for (match_id,) in cursor.fetchall()]


def _players_of(user_ids: set[int]) -> dict[int, Player]:
    """What a match's context knows of its players (as `locked` reads them), in one read."""
    rows = User.objects.filter(pk__in=user_ids).values_list(*PLAYER_FIELDS)
    return {row[0]: Player(*row) for row in rows}


def matches_start_many(news: Sequence[NewMatch]) -> list[Locked]:
    """Begin many matches between people at once (a tournament's pairing wave): every player's
    start lock in one statement, one read of who is playing now, then the matches of the others
    (`matches_new`, `matches_started`). A match one of whose players is playing another match
    (started another way meanwhile) is left out, the others begin; their contexts are returned,
    in the order given. Call inside a transaction."""
    players_lock(seat for new in news for seat in new.seats)
    busy = playing_now(seat for new in news for seat in new.seats)
    contexts = matches_new([new for new in news if busy.isdisjoint(new.seats)])
    matches_started([(context, _seated(context)) for context in contexts])
    return contexts


def _seated(context: Locked) -> tuple[int, int]:
    match = context.match
    return (match.creator_id, match.opponent_id)  # type: ignore[return-value]


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
    """The match of `context` has just begun, under `players_lock(people)` (`matches_started`
    of one)."""
    matches_started([(context, people)])


def matches_started(started: Sequence[tuple[Locked, Sequence[int]]]) -> None:
    """These matches have just begun, each under `players_lock` of its people: cancel the
    players' other open challenges (one read, then locking each row in turn) and announce the
    starts after commit, all in one message. A correspondence match does neither (the module's
    docstring): only a direct challenge's notice leaves the invited player's pages."""
    for context, _people in started:
        if context.match.correspondence and context.match.invited_id is not None:
            notify_user(
                context.match.invited_id, {"type": "challenge_gone", "match_id": context.match.pk}
            )
    started = [(context, people) for context, people in started if not context.match.correspondence]
    if not started:
        return
    started_ids = [context.match.pk for context, _people in started]
    everyone = sorted({person for _context, people in started for person in people})
    others = (
        Match.objects.filter(creator_id__in=everyone, status=MatchStatus.OPEN)
        .exclude(pk__in=started_ids)
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
    for context, _people in started:
        if context.match.invited_id is not None:  # accepted: out of the invited's other pages
            notify_user(
                context.match.invited_id, {"type": "challenge_gone", "match_id": context.match.pk}
            )
    match_ids, player_ids = tuple(started_ids), tuple(everyone)
    transaction.on_commit(lambda: _announce(match_ids, player_ids))


def _announce(match_ids: tuple[int, ...], player_ids: tuple[int, ...]) -> None:
    """Tell the apps above (games/hooks.py); one failing receiver does not stop the others,
    and the matches have started whatever they do."""
    send_to_all(
        match_started_signal, "match_started", f"matches {match_ids}",
        sender=Match, match_ids=match_ids, player_ids=player_ids,
    )  # fmt: skip
