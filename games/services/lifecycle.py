"""A match's life outside the board: create, accept or cancel a challenge, start (the rematch
is games/services/rematch.py, the endings games/services/endings.py).

Each command opens `transaction.atomic()` and locks the Match row (`runners.locked`); one that
may start a match first takes its players' start locks (games/services/starts.py: one match at a
time per player). The rules of what happens are the engine's (nardy/match), a refused
command raises `CommandError` and changes nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.locks import user_row_lock
from games.effects import Effects
from games.effects import on_commit as effects_on_commit
from games.fairness import is_client_seed, new_client_seed
from games.models import Match, MatchStatus, TimeControl, rule_columns
from games.next_seed import take_next_seed
from games.services.runners import locked
from games.services.starts import (
    begin_first_game,
    match_new,
    match_started,
    people_of,
    players_lock,
    refuse_if_playing,
    refuse_past_correspondence_limit,
    refuse_start,
)
from moderation.eligibility import refuse_if_banned, refuse_if_blocked
from nardy import RuleSet, rule_set
from nardy import match as engine
from nardy.clock import TimeControl as TimeControlRule
from ratings.selectors import ratings_of
from realtime.errors import CommandError
from realtime.groups import notify_user


def chosen_rules(
    rule_set_name: str, *, rated: bool, turn_seconds: int | None, length: int | None = None,
    time_control: str = TimeControl.TURN, move_days: int | None = None, **options: Any,
) -> RuleSet:  # fmt: skip
    """The engine's rule set for a player's choices (empty ones keep the preset's value);
    `bad_field` for a value the engine refuses, an unknown time control, untimed rated play
    (NARDEON and Omerta are timed without turn seconds), or days per move other than the
    correspondence clock's (nardy/clock.py)."""
    chosen = {
        name: value for name, value in {"match_length": length, **options}.items()
        if value not in (None, "")
    }  # fmt: skip
    try:
        rules = rule_set(rule_set_name, **chosen)
    except ValueError as error:
        raise CommandError("bad_field", str(error)) from None
    if time_control not in TimeControl.values:
        raise CommandError("bad_field", _("Choose one of the time controls offered."))
    if rated and not turn_seconds and time_control == TimeControl.TURN:
        raise CommandError("bad_field", _("Untimed play is for casual matches only."))
    try:
        TimeControlRule(time_control, move_days=move_days)
    except (ValueError, TypeError):
        raise CommandError(
            "bad_field", _("A correspondence match takes 1, 2, 3, 5 or 7 days per move.")
        ) from None
    return rules


def client_seed_or_new(value: object) -> str:
    """A seat's client seed (games/fairness): the one the browser sent, or a fresh one when it
    sent none; a malformed one is refused."""
    if value is None or value == "":
        return new_client_seed()
    return _valid_client_seed(value)


def _valid_client_seed(value: object) -> str:
    if not is_client_seed(value):
        raise CommandError(
            "bad_field", _("A client seed is 1 to 64 letters (a–z, A–Z), digits, “_” or “-”.")
        )
    return value  # type: ignore[return-value]


def match_create(
    *,
    creator,
    rule_set_name: str = "traditional",
    length: int | None = None,
    turn_seconds: int | None = 60,
    reserve_seconds: int = 0,
    rated: bool = True,
    private: bool = False,
    head_exception: str | None = None,
    opening: str | None = None,
    single_die: str | None = None,
    block_release: str | None = None,
    game_starter: str | None = None,
    doubling_cube: bool | None = None,
    cube_raise: str | None = None,
    crawford: bool | None = None,
    time_control: str = TimeControl.TURN,
    move_days: int | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    invited=None,
    expires_at=None,
    client_seed: str | None = None,
) -> Match:
    """An open challenge (or a private invite, or a direct challenge to `invited`). Validates
    through the engine's RuleSet; the rule pages' clocks (`time_control` other than "turn") have
    their own figures, so they take no turn time or reserve (nardy/clock.py). Its server seed
    is the one the creator's page committed to before the form was sent (games/next_seed.py), and
    ``client_seed`` is the creator's browser's (games/fairness). A correspondence challenge
    (``move_days``) stays open CORRESPONDENCE_CHALLENGE_DAYS, counts towards the creator's
    CORRESPONDENCE_MATCHES_MAX and is for players with an account."""
    seed = client_seed_or_new(client_seed)
    rules = chosen_rules(
        rule_set_name, rated=rated, turn_seconds=turn_seconds, length=length,
        time_control=time_control, move_days=move_days, head_exception=head_exception,
        opening=opening, single_die=single_die, block_release=block_release,
        game_starter=game_starter, doubling_cube=doubling_cube, cube_raise=cube_raise,
        crawford=crawford,
    )  # fmt: skip
    if time_control != TimeControl.TURN:
        turn_seconds, reserve_seconds = None, 0
    if creator.is_guest and (rated or private):
        # Guests play casual open games only: no rated play, no direct challenges.
        raise CommandError("guest_not_allowed", _("Sign up to play rated or to invite a friend."))
    correspondence = time_control == TimeControl.CORRESPONDENCE
    if creator.is_guest and correspondence:
        # A guest is one browser's session: nobody to tell that a turn waits days later.
        raise CommandError("guest_not_allowed", _("Sign up to play correspondence matches."))
    refuse_if_banned(creator)
    if correspondence:
        refuse_past_correspondence_limit([creator.pk])
        expires_at = timezone.now() + timedelta(days=settings.CORRESPONDENCE_CHALLENGE_DAYS)
    match = Match(
        creator=creator,
        private=private,
        rule_set_name=rule_set_name,
        turn_seconds=turn_seconds or None,
        reserve_seconds=reserve_seconds,
        time_control=time_control,
        move_days=move_days if correspondence else None,
        rated=rated,
        min_rating=min_rating,
        max_rating=max_rating,
        invited=invited,
        expires_at=expires_at,
        client_seed_creator=seed,
        **rule_columns(rules),
    )
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise CommandError("bad_field", _("The lowest rating is above the highest."))
    already_open = _("You already have an open challenge; cancel it first.")
    if (
        not private
        and Match.objects.filter(creator=creator, status=MatchStatus.OPEN, private=False).exists()
    ):
        raise CommandError("already_open", already_open)
    try:
        match.full_clean(exclude=["invite_token"])
    except ValidationError as error:  # a clear message, nothing written
        raise CommandError("bad_field", "; ".join(error.messages)) from None
    match.server_seed = take_next_seed(creator.pk)  # taken once the challenge is sure to be valid
    try:
        with transaction.atomic():
            if private:
                _limit_private_challenges(creator)
            match.save()
    except IntegrityError:  # a concurrent create won the race for the one open challenge
        raise CommandError("already_open", already_open) from None
    effects_on_commit(Effects(lobby_changed=True))
    return match


def _limit_private_challenges(creator) -> None:
    """At most PRIVATE_CHALLENGES_PER_HOUR invite links per player and hour, so links cannot be
    minted without end. Locks the creator's row, so two tabs creating at once are counted one after
    the other (accounts/locks.py: two players challenging each other at once both get theirs)."""
    user_row_lock(creator.pk)
    since = timezone.now() - timedelta(hours=1)
    made = Match.objects.filter(creator=creator, private=True, created_at__gte=since).count()
    if made >= settings.PRIVATE_CHALLENGES_PER_HOUR:
        raise CommandError(
            "too_many_invites",
            _("You have made %(count)s invite links in the last hour; try again later.")
            % {"count": made},
        )


def match_cancel(*, user, match_id: int) -> Match:
    """The creator withdraws an open challenge. Locks the match row."""
    with transaction.atomic():
        context = locked(match_id)
        seat = context.match.seat_of(user.pk)
        context.run(lambda state: engine.cancel(state, now=context.now, seat=seat))
        context.save()
        if context.match.invited_id is not None:  # withdrawn: the challenged player's notice goes
            notify_user(
                context.match.invited_id, {"type": "challenge_gone", "match_id": context.match.pk}
            )
    return context.match


def match_client_seed(*, user, match_id: int, client_seed: str) -> Match:
    """The creator replaces their client seed while the challenge is open (games/fairness).
    Locks the match row."""
    seed = _valid_client_seed(client_seed)
    with transaction.atomic():
        context = locked(match_id)
        seat = context.match.seat_of(user.pk)
        context.run(lambda state: engine.set_client_seed(state, seat=seat, client_seed=seed))
        context.save()
    return context.match


def match_accept(
    *, user, match_id: int, token: str | None = None, client_seed: str | None = None
) -> Match:
    """A second player takes the open seat (with their browser's client seed); the first game
    starts with the opening roll, and both players' other open challenges and pool waits end.
    Takes both players' start locks (games/services/starts.py: one tab of a player accepting
    two challenges at once gets one match), then the match row, so two players accepting at once
    cannot both get the seat. The database's conditions (a ban, a block, another match) are
    checked here, the challenge's own by the engine (``engine.accept``)."""
    seed = client_seed_or_new(client_seed)
    with transaction.atomic():
        people = people_of(match_id, user.pk)
        players_lock(people)
        context = locked(match_id)
        if context.match.status == MatchStatus.OPEN and context.match.creator_id != user.pk:
            refuse_if_banned(user)
            refuse_if_blocked(context.match.creator_id, user.pk)
            refuse_start(context.match, people, asking=user.pk)
        # A correspondence challenge's rating range is of the correspondence board.
        rating = ratings_of([user.pk], correspondence=context.match.correspondence)[user.pk]
        candidate = engine.Candidate(
            user=user.pk, rating=rating.value, client_seed=seed,
            may_play_rated=user.may_play_rated, active=user.is_active, token=token,
        )  # fmt: skip
        # The accepting player's own instance is left as it came (no rating cached on it).
        context.note_player(
            user.pk, user.username, user.auto_roll, rating, True,
            user.bot_level, user.play_forced, user.confirm_turn,
        )  # fmt: skip
        context.run(lambda state: engine.accept(state, candidate=candidate, now=context.now))
        begin_first_game(context)
        context.save()
        match_started(context, people)
    return context.match


def match_start_paired(
    *,
    first_id: int,
    second_id: int,
    rule_set_name: str,
    length: int,
    turn_seconds: int,
    rated: bool,
    client_seeds: tuple[str, str],
    server_seed: str,
) -> Match:
    """A match between two players the pairing pool matched (pairing/services.py), started at
    once with the opening roll like a rematch. Call inside the pairing transaction: it takes
    both players' start locks and refuses with `in_a_match` when one of them started a match
    another way meanwhile (games/services/starts.py), changing nothing. The client
    seeds are both players' browsers' (sent when they joined the pool); ``server_seed`` is the
    first joiner's, committed on their Play page before either client seed was sent
    (games/next_seed.py)."""
    people = [first_id, second_id]
    players_lock(people)
    refuse_if_playing(people)
    context = match_new(
        seats=(first_id, second_id), rule_set_name=rule_set_name,
        rules=rule_set(rule_set_name, match_length=length), turn_seconds=turn_seconds,
        rated=rated, client_seeds=client_seeds, server_seed=server_seed,
    )  # fmt: skip
    match_started(context, people)
    return context.match
