"""Every write to matches and games: one function per command (CONVENTIONS.md).

Each command opens `transaction.atomic()`, locks the Match row with `select_for_update()` first
(our one-actor-per-match), checks everything, changes state, records versioned events, and
publishes them after commit. A refused command raises `CommandError` and changes nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config import metrics
from games import dice as dice_source
from games import rows
from games.events import MatchContext
from games.models import EndReason, Game, Match, MatchStatus, Phase, Turn
from games.protocol import move_of_turn, step_to_wire, turn_state_of
from games.rule_messages import translated_reason
from games.rules import (
    START_BOARD,
    IllegalMove,
    Step,
    choose_rest_of_turn,
    game_result,
    is_turn_complete,
    legal_next_steps,
    opening_winner,
    play_step,
    rule_set,
    undo_step,
)
from ratings.models import INITIAL_RATING
from ratings.selectors import ratings_of

# A chain of automatic passes (auto-roll with no legal step on both sides) stops after this many
# turns and waits for a player, so a command's transaction stays short.
MAX_AUTOMATIC_TURNS = 8


class CommandError(Exception):
    """A refused command: `code` for programs (docs/protocol.md), message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- Loading and locking -------------------------------------------------------------------------


def _lock(match_id: int) -> MatchContext:
    """Lock the match row and load its current game and players (inside a transaction), in one
    statement (games/rows.py)."""
    locked = rows.lock_match(match_id)
    if locked is None:
        raise CommandError("not_found", _("There is no such match."))
    context = MatchContext(match=locked.match, game=locked.game, usernames={}, ratings={})
    for player in locked.players:
        _note_player(
            context, player.id, player.username, player.auto_roll, player.rating, player.is_active
        )
    context.turn_at_start = context.open_turn()
    context.match_sent = context.current_match_section()
    return context


def _note_player(
    context: MatchContext,
    user_id: int,
    username: str,
    auto_roll: bool,
    rating: int | None,
    is_active: bool,
) -> None:
    context.usernames[user_id] = username
    if not is_active:
        context.inactive.add(user_id)
    context.ratings[user_id] = INITIAL_RATING if rating is None else rating
    if auto_roll:
        context.auto_roll.add(user_id)


def _add_players(context: MatchContext, user_ids: list[int]) -> None:
    """Names, ratings and the auto-roll preference of players, in one query."""
    from accounts.models import User

    for row in User.objects.filter(pk__in=user_ids).values_list(
        "pk", "username", "auto_roll", "rating__value", "is_active"
    ):
        _note_player(context, *row)


def _seat_of_player(context: MatchContext, user_id: int | None) -> int:
    seat = context.match.seat_of(user_id)
    if seat is None:
        raise CommandError("not_a_player", _("Only the two players can do that; you are watching."))
    if user_id in context.inactive:
        # The socket of a deactivated user is closed (accounts/signals.py); this refuses what it
        # sent before the close arrived, read from the row locked with the match.
        raise CommandError("account_inactive", _("This account is deactivated."))
    return seat


def _require_active(context: MatchContext) -> None:
    if context.match.status != MatchStatus.ACTIVE:
        raise CommandError("match_not_active", _("This match is not being played."))


def _require_turn(context: MatchContext, user_id: int, version: int | None) -> Game:
    seat = _seat_of_player(context, user_id)
    _require_active(context)
    game = context.game
    if game is None or game.phase == Phase.OVER:
        raise CommandError("match_not_active", _("No game is being played."))
    if game.seat_of_side(game.turn) != seat:
        raise CommandError("not_your_turn", _("It is not your turn."))
    if version is not None and version != context.match.version:
        raise CommandError(
            "stale_version",
            _("The board has changed since (version %(now)s, you sent %(sent)s).")
            % {"now": context.match.version, "sent": version},
        )
    return game


# `last_activity_at` only serves the 24-hour stale check, and it is indexed: writing it on every
# command would make every match update a non-HOT one that touches all the table's indexes.
ACTIVITY_PRECISION = timedelta(minutes=1)


def _save(context: MatchContext) -> None:
    now = timezone.now()
    if now - context.match.last_activity_at >= ACTIVITY_PRECISION:
        context.match.last_activity_at = now
    rows.save(context.match, *([context.game] if context.game is not None else []),
              new=context.new_rows)  # fmt: skip
    context.new_rows = []
    context.publish_on_commit()


# --- Creating, accepting, cancelling -------------------------------------------------------------


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
) -> Match:
    """An open challenge (or a private invite). Validates through the engine's RuleSet."""
    overrides: dict[str, Any] = {}
    if length is not None:
        overrides["match_length"] = length
    if head_exception:
        overrides["head_exception"] = head_exception
    if opening:
        overrides["opening"] = opening
    try:
        rules = rule_set(rule_set_name, **overrides)
    except ValueError as error:
        raise CommandError("bad_field", str(error)) from None
    if rated and not turn_seconds:
        raise CommandError("bad_field", _("Untimed play is for casual matches only."))
    match = Match(
        creator=creator,
        private=private,
        rule_set_name=rule_set_name,
        six_block=rules.six_block,
        head_exception=rules.head_exception,
        opening=rules.opening,
        undo_allowed=rules.undo_allowed,
        length=rules.match_length,
        turn_seconds=turn_seconds or None,
        reserve_seconds=reserve_seconds,
        rated=rated,
    )
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
    try:
        with transaction.atomic():
            if private:
                _limit_private_challenges(creator)
            match.save()
    except IntegrityError:  # a concurrent create won the race for the one open challenge
        raise CommandError("already_open", already_open) from None
    transaction.on_commit(lambda: _lobby_changed())
    return match


def _limit_private_challenges(creator) -> None:
    """At most PRIVATE_CHALLENGES_PER_HOUR invite links per player and hour (issue 10). Locks the
    creator's row, so two tabs creating at once are counted one after the other."""
    from accounts.models import User

    User.objects.select_for_update().filter(pk=creator.pk).first()
    since = timezone.now() - timedelta(hours=1)
    made = Match.objects.filter(creator=creator, private=True, created_at__gte=since).count()
    if made >= settings.PRIVATE_CHALLENGES_PER_HOUR:
        raise CommandError(
            "too_many_invites",
            _("You have made %(count)s invite links in the last hour; try again later.")
            % {"count": made},
        )


def _lobby_changed() -> None:
    from games.events import publish

    publish(0, [], lobby=True)


def match_cancel(*, user, match_id: int) -> Match:
    """The creator withdraws an open challenge. Locks the match row."""
    with transaction.atomic():
        context = _lock(match_id)
        match = context.match
        if match.creator_id != user.pk:
            raise CommandError("not_a_player", _("Only the creator can cancel a challenge."))
        if match.status != MatchStatus.OPEN:
            raise CommandError("match_not_active", _("This challenge is no longer open."))
        match.status = MatchStatus.CANCELLED
        match.finished_at = timezone.now()
        context.record("cancelled", {})
        context.lobby_changed = True
        _save(context)
    return match


def match_accept(*, user, match_id: int, token: str | None = None) -> Match:
    """A second player takes the open seat; the first game starts with the opening roll.
    Locks the match row, so two players accepting at once cannot both get the seat."""
    with transaction.atomic():
        context = _lock(match_id)
        match = context.match
        if match.status != MatchStatus.OPEN:
            raise CommandError("match_not_active", _("This challenge is no longer open."))
        if match.private and token != match.invite_token:
            raise CommandError("not_found", _("This invitation link is not valid."))
        if match.creator_id == user.pk:
            raise CommandError("not_a_player", _("You cannot accept your own challenge."))
        if not user.is_active:
            raise CommandError("not_a_player", _("This account is not active."))
        match.opponent = user
        match.status = MatchStatus.ACTIVE
        match.started_at = timezone.now()
        match.reserve_ms_creator = match.reserve_ms_opponent = match.reserve_seconds * 1000
        _add_players(context, [user.pk])
        _start_game(context, number=1, starter_seat=None)
        context.lobby_changed = True
        _save(context)
    return match


def _start_game(context: MatchContext, *, number: int, starter_seat: int | None) -> None:
    """A new game. Game 1 opens with the one-die roll (ties rolled again, all shown); later games
    are started by the previous winner, who plays White (RULES.md "Who starts")."""
    match = context.match
    now = timezone.now()
    opening_white = opening_black = None
    ties: list[list[int]] = []
    first_dice = None
    if starter_seat is None:
        while True:
            die_creator, die_opponent = dice_source.roll_dice()
            starter = opening_winner(die_creator, die_opponent)
            if starter is not None:
                break
            ties.append([die_creator, die_opponent])
        starter_seat = starter
        high, low = max(die_creator, die_opponent), min(die_creator, die_opponent)
        opening_white, opening_black = high, low
        if match.opening == "play_roll":
            first_dice = [high, low]
    game = Game(
        match=match,
        number=number,
        white_seat=starter_seat,
        opening_white=opening_white,
        opening_black=opening_black,
        opening_ties=ties,
        start_board=list(START_BOARD),
        board=list(START_BOARD),
        turn_board=list(START_BOARD),
        turn="w",
        phase=Phase.ROLL,
        turn_started_at=now,
    )
    _set_deadline(match, game)
    game.save()
    context.game = game
    context.record("started", {"game": number})
    if first_dice is not None:
        _set_dice(context, first_dice)
    else:
        _maybe_auto_roll(context)


def _set_deadline(match: Match, game: Game) -> None:
    """The turn's deadline: turn time plus what is left of the mover's reserve bank."""
    if not match.turn_seconds:
        game.turn_deadline = None
        return
    reserve_ms = match.reserve_ms(game.seat_of_side(game.turn))
    game.turn_deadline = game.turn_started_at + timedelta(
        seconds=match.turn_seconds, milliseconds=reserve_ms
    )


# --- Rolling, stepping, undoing ------------------------------------------------------------------


def game_roll(*, user, match_id: int, version: int | None) -> Match:
    """The mover rolls; a roll with no legal step is shown and the turn passes by itself.
    Locks the match row."""
    with transaction.atomic():
        context = _lock(match_id)
        game = _require_turn(context, user.pk, version)
        if game.phase != Phase.ROLL:
            raise CommandError("already_rolled", _("The dice are already rolled."))
        _roll(context)
        _save(context)
    return context.match


def _roll(context: MatchContext, *, by_server: bool = False) -> None:
    _set_dice(context, list(dice_source.roll_dice()), by_server=by_server)


def _set_dice(context: MatchContext, dice: list[int], *, by_server: bool = False) -> None:
    game = context.game
    game.dice = dice
    game.phase = Phase.MOVE
    game.steps = []
    context.record("rolled", {"side": game.turn, "dice": dice})
    turn = turn_state_of(context.match, game)
    if not legal_next_steps(turn):
        _finish_turn(context, by_server=by_server)


def game_step_play(*, user, match_id: int, version: int | None, step: Step) -> Match:
    """Play one step of the mover's turn; when no step is left the turn passes by itself.
    Locks the match row; a refused step changes nothing."""
    with transaction.atomic():
        context = _lock(match_id)
        game = _require_turn(context, user.pk, version)
        if game.phase != Phase.MOVE:
            raise CommandError("not_rolled", _("Roll the dice first."))
        _play_step(context, step)
        _save(context)
    return context.match


def _play_step(context: MatchContext, step: Step, *, by_server: bool = False) -> None:
    game = context.game
    try:
        after = play_step(turn_state_of(context.match, game), step)
    except IllegalMove as error:
        raise CommandError("illegal_step", translated_reason(str(error))) from None
    game.board = list(after.board)
    game.steps = [step_to_wire(played) for played in after.steps]
    context.record("step", {"side": game.turn, "step": step_to_wire(step)})
    if is_turn_complete(after):
        _finish_turn(context, by_server=by_server)


def game_turn_undo(*, user, match_id: int, version: int | None) -> Match:
    """Take back the last step of the turn (rule sets with undo only). Locks the match row."""
    with transaction.atomic():
        context = _lock(match_id)
        game = _require_turn(context, user.pk, version)
        if not context.match.undo_allowed:
            raise CommandError("undo_not_allowed", _("In this rule set every step is final."))
        if game.phase != Phase.MOVE or not game.steps:
            raise CommandError("nothing_to_undo", _("There is no step to take back."))
        before = undo_step(turn_state_of(context.match, game))
        undone = game.steps[-1]
        game.board = list(before.board)
        game.steps = [step_to_wire(played) for played in before.steps]
        context.record("undo", {"side": game.turn, "step": undone})
        _save(context)
    return context.match


def _finish_turn(context: MatchContext, *, by_server: bool) -> None:
    """Log the turn, then end the game or hand the dice to the other side."""
    match, game = context.match, context.game
    now = timezone.now()
    side = game.turn
    seat = game.seat_of_side(side)
    turn = Turn(
        game=game,
        number=game.turn_number,
        side=side,
        player_id=match.player_id(seat),
        dice=list(game.dice),  # copies: the row may be written after the game moves on
        steps=list(game.steps),
        board_after=list(game.board),
        by_server=by_server,
        started_at=game.turn_started_at,
        finished_at=now,
    )
    _spend_reserve(match, game, seat, now)
    if side == "w":
        game.white_has_moved = True
    else:
        game.black_has_moved = True
    # The `turn` event carries the move-log entry; clients append it (events leave the log out).
    logged = {**move_of_turn(turn), "passed": not game.steps}
    finished = game_result(tuple(game.board))
    if finished is not None:
        # The end of a game writes through the ORM too: the log goes in first, at once.
        for row in [*context.new_rows, turn]:
            rows.insert(row)
        context.new_rows = []
        game.phase = Phase.OVER
        context.record("turn", logged)
        _finish_game(context, winner_side=finished[0], points=finished[1])
        return
    game.turn = "b" if side == "w" else "w"
    game.turn_number += 1
    game.dice = None
    game.steps = []
    game.phase = Phase.ROLL
    game.turn_board = list(game.board)
    game.turn_started_at = now
    _set_deadline(match, game)
    context.new_rows.append(turn)  # written with the command's updates (_save)
    context.record("turn", logged)
    _maybe_auto_roll(context)


def _spend_reserve(match: Match, game: Game, seat: int, now) -> None:
    """Time beyond the turn allowance comes out of the mover's reserve bank."""
    if not match.turn_seconds:
        return
    elapsed_ms = int((now - game.turn_started_at).total_seconds() * 1000)
    overrun = max(0, elapsed_ms - match.turn_seconds * 1000)
    match.set_reserve_ms(seat, max(0, match.reserve_ms(seat) - overrun))


def _maybe_auto_roll(context: MatchContext) -> None:
    """Roll at once for a mover who chose "roll automatically" (bounded chain of passes)."""
    automatic_turns = sum(1 for event in context.events if event["kind"] == "rolled")
    game = context.game
    if automatic_turns >= MAX_AUTOMATIC_TURNS or game.phase != Phase.ROLL:
        return
    mover_id = context.match.player_id(game.seat_of_side(game.turn))
    if mover_id in context.auto_roll:
        _roll(context)


def _finish_game(context: MatchContext, *, winner_side: str, points: int) -> None:
    match, game = context.match, context.game
    game.result = "oin" if points == 1 else "mars"
    game.winner_side = winner_side
    game.points = points
    game.finished_at = timezone.now()
    game.turn_deadline = None
    winner_seat = game.seat_of_side(winner_side)
    if winner_seat == 0:
        match.score_creator += points
    else:
        match.score_opponent += points
    context.lobby_changed = True
    context.record(
        "game_over",
        {"game": game.number, "winner": winner_side, "result": game.result, "points": points},
    )
    if max(match.scores) >= match.length:
        _finish_match(context, winner_seat=winner_seat, reason=EndReason.FINISHED)
        return
    rows.save(game)  # the next game replaces it in the context
    _start_game(context, number=game.number + 1, starter_seat=winner_seat)


def _finish_match(context: MatchContext, *, winner_seat: int, reason: str) -> None:
    from ratings.services import rating_apply_match

    match = context.match
    match.status = MatchStatus.FINISHED
    match.winner_id = match.player_id(winner_seat)
    match.end_reason = reason
    match.finished_at = timezone.now()
    if context.game is not None and context.game.phase != Phase.OVER:
        context.game.phase = Phase.OVER
        context.game.finished_at = match.finished_at
    if context.game is not None:
        context.game.turn_deadline = None
    context.lobby_changed = True
    detail = {"winner_seat": winner_seat, "reason": reason}
    if match.rated:
        applied = rating_apply_match(
            match=match, winner_id=match.winner_id, loser_id=match.player_id(1 - winner_seat)
        )
        context.ratings.update(ratings_of([match.creator_id, match.opponent_id]))
        detail["rating_changes"] = [applied.get(match.player_id(seat)) for seat in (0, 1)]
    context.record("match_over", detail)


# --- Resigning, leaving, rematch -----------------------------------------------------------------


def match_resign(*, user, match_id: int, left_table: bool = False) -> Match:
    """Resigning (or leaving the table) loses the whole match (RULES.md). Locks the match row."""
    with transaction.atomic():
        context = _lock(match_id)
        seat = _seat_of_player(context, user.pk)
        _require_active(context)
        reason = EndReason.LEFT if left_table else EndReason.RESIGNED
        _finish_match(context, winner_seat=1 - seat, reason=reason)
        _save(context)
    return context.match


def match_rematch_offer(*, user, match_id: int) -> Match:
    """Offer a rematch, or accept the opponent's offer (a new match, same settings, both
    players seated, opening roll at once; its id is `match.rematch_id`). Locks the match row."""
    with transaction.atomic():
        context = _lock(match_id)
        match = context.match
        seat = _seat_of_player(context, user.pk)
        if match.status != MatchStatus.FINISHED or match.end_reason == EndReason.ABORTED:
            raise CommandError("match_not_finished", _("A rematch is offered after the match."))
        if match.rematch_id is not None:
            raise CommandError("match_not_finished", _("The rematch has already started."))
        if match.rematch_offered_by is None or match.rematch_offered_by == seat:
            match.rematch_offered_by = seat
            match.rematch_declined = False
            context.record("rematch", {"offered_by": seat})
            _save(context)
            return match
        new_match = Match.objects.create(
            creator_id=match.player_id(seat),
            opponent_id=match.player_id(1 - seat),
            private=True,
            rule_set_name=match.rule_set_name,
            six_block=match.six_block,
            head_exception=match.head_exception,
            opening=match.opening,
            undo_allowed=match.undo_allowed,
            length=match.length,
            turn_seconds=match.turn_seconds,
            reserve_seconds=match.reserve_seconds,
            rated=match.rated,
            status=MatchStatus.ACTIVE,
            started_at=timezone.now(),
            reserve_ms_creator=match.reserve_seconds * 1000,
            reserve_ms_opponent=match.reserve_seconds * 1000,
        )
        new_context = MatchContext(match=new_match, game=None, usernames={}, ratings={})
        _add_players(new_context, [new_match.creator_id, new_match.opponent_id])
        _start_game(new_context, number=1, starter_seat=None)
        new_context.lobby_changed = True
        _save(new_context)
        match.rematch = new_match
        match.rematch_offered_by = None
        context.record("rematch", {"match_id": new_match.pk})
        _save(context)
    return match


def match_rematch_decline(*, user, match_id: int) -> Match:
    """Decline the opponent's rematch offer, or withdraw one's own. Locks the match row."""
    with transaction.atomic():
        context = _lock(match_id)
        seat = _seat_of_player(context, user.pk)
        match = context.match
        if match.rematch_offered_by is None:
            raise CommandError("match_not_finished", _("There is no rematch offer."))
        match.rematch_offered_by = None
        match.rematch_declined = True
        context.record("rematch", {"declined_by": seat})
        _save(context)
    return match


# --- Deadlines (timed play) ----------------------------------------------------------------------

TIMEOUTS_TO_LOSE = 3  # the third timeout in a match loses it (RULES.md "Platform rules")


def game_deadline_enforce(
    *, match_id: int, game_id: int, turn_number: int, skip_locked: bool = False
) -> float | None:
    """The server plays the turn of a mover whose time ran out and counts a timeout; the third
    loses the match. Locks the match row (`skip_locked` for the sweep: a row being changed now is
    left to the next sweep). Does nothing when that turn is over already (a last-moment step won
    the race, or another enforcer did it) and never acts before the deadline: then it returns the
    seconds still to wait; otherwise None."""
    with transaction.atomic():
        if skip_locked:
            row = Match.objects.select_for_update(skip_locked=True).filter(pk=match_id)
            if not row.exists():
                return None  # being changed right now: the next sweep looks again
        try:
            context = _lock(match_id)
        except CommandError:
            return None  # the match is gone
        game = context.game
        if context.open_turn() != (game_id, turn_number) or game.turn_deadline is None:
            return None
        remaining = (game.turn_deadline - timezone.now()).total_seconds()
        if remaining > 0:
            return remaining
        transaction.on_commit(lambda: metrics.deadline_enforced(-remaining, by_sweep=skip_locked))
        match = context.match
        seat = game.seat_of_side(game.turn)
        timeouts = match.add_timeout(seat)
        context.record("timeout", {"seat": seat, "side": game.turn, "timeouts": timeouts})
        if timeouts >= TIMEOUTS_TO_LOSE:
            _finish_match(context, winner_seat=1 - seat, reason=EndReason.TIMEOUTS)
        else:
            if game.phase == Phase.ROLL:
                _roll(context, by_server=True)
            if context.open_turn() == (game_id, turn_number):  # not passed by the roll itself
                for step in choose_rest_of_turn(turn_state_of(match, game)):
                    _play_step(context, step, by_server=True)
        _save(context)
    return None


def game_deadlines_due(*, limit: int = 200) -> list[tuple[int, int, int]]:
    """(match id, game id, turn number) of open turns whose deadline has passed."""
    return list(
        Game.objects.filter(
            turn_deadline__lte=timezone.now(),
            phase__in=[Phase.ROLL, Phase.MOVE],
            match__status=MatchStatus.ACTIVE,
        )
        .order_by("turn_deadline")
        .values_list("match_id", "pk", "turn_number")[:limit]
    )


STALE_AFTER = timedelta(hours=24)


def matches_close_stale() -> int:
    """Close what nobody touches any more (README "How play works"): an active match
    with no action for STALE_AFTER is aborted, unrated; an open challenge that old is cancelled.
    Each is locked with skip_locked, so a match being played right now is left alone."""
    cutoff = timezone.now() - STALE_AFTER
    closed = 0
    for match_id in Match.objects.filter(
        status__in=[MatchStatus.ACTIVE, MatchStatus.OPEN], last_activity_at__lt=cutoff
    ).values_list("pk", flat=True)[:500]:
        with transaction.atomic():
            if not Match.objects.select_for_update(skip_locked=True).filter(pk=match_id).exists():
                continue
            context = _lock(match_id)
            match = context.match
            if match.last_activity_at >= cutoff or match.status not in ("active", "open"):
                continue
            if match.status == MatchStatus.OPEN:
                match.status = MatchStatus.CANCELLED
                context.record("cancelled", {})
            else:
                match.status = MatchStatus.ABORTED
                match.end_reason = EndReason.ABORTED
                if context.game is not None and context.game.phase != Phase.OVER:
                    context.game.phase = Phase.OVER
                    context.game.turn_deadline = None
                context.record("match_over", {"winner_seat": None, "reason": EndReason.ABORTED})
            match.finished_at = timezone.now()
            context.lobby_changed = True
            _save(context)
            closed += 1
    return closed
