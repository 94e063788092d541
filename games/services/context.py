"""Load → engine → persist → after commit: the one write path of every match command.

A command gets its context from games/services/runners.py: `locked(match_id)` for rows locked in
the caller's transaction, `play` for the players' board commands, which first try the rows read
without the lock. `context_of` builds the context of rows already loaded.
`Locked.run(operation)` hands the state to the engine (nardy/match), folds the events it
decided into the rows, and keeps the wire events. `Locked.save()` writes what changed in one
statement (hot_path.write_rows; new matches and games through the ORM's `bulk_create`);
`Locked.follow_up()` says what is done after commit (games/effects.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from config.hooks import send_to_all
from games import dice as dice_source
from games import effects
from games.effects import Effects
from games.hooks import match_ended
from games.models import Game, Match, MatchStatus, Turn
from games.protocol import event_detail, game_state, match_section, step_to_wire
from games.services.errors import refused
from games.services.follow_up import command_effects
from games.services.hot_path import (
    Player,
    Versions,
    write_rows,
    write_rows_guarded,
)
from games.services.match_ratings import match_ratings_apply
from games.services.state_rows import (
    changed_fields,
    copy_onto,
    game_values,
    match_state_of,
    match_values,
    new_game_row,
    row_values,
)
from nardy import IllegalMove
from nardy.match import (
    Cancelled,
    Event,
    GameOver,
    MatchOver,
    MatchState,
    Started,
    TurnEnded,
    apply_event,
)
from ratings.counts import record_count_match
from ratings.models import ShownRating
from realtime.errors import CommandError

# `last_activity_at` only serves the 24-hour stale check, and it is indexed: writing it on every
# command would make every match update a non-HOT one that touches all the table's indexes.
ACTIVITY_PRECISION = timedelta(minutes=1)

T = TypeVar("T")
# The events after which a match's game or the match itself begins or ends: the lobby shows it,
# and only the locked path writes what follows them (runners.py `play`).
BEGINS_OR_ENDS = (Started, GameOver, MatchOver, Cancelled)
Operation = Callable[[MatchState], tuple[MatchState, list[Event]]]


@dataclass
class Locked:
    """A locked match, its current game and players, and what a command did to them."""

    match: Match
    game: Game | None
    now: datetime
    usernames: dict[int, str] = field(default_factory=dict)
    ratings: dict[int, ShownRating] = field(default_factory=dict)
    auto_roll: set[int] = field(default_factory=set)  # user ids
    play_forced: set[int] = field(default_factory=set)  # user ids: "play forced turns for me"
    confirm_turn: set[int] = field(default_factory=set)  # user ids: "confirm my turn" (people)
    inactive: set[int] = field(default_factory=set)  # players whose account is deactivated
    bot_levels: dict[int, str] = field(default_factory=dict)  # user id -> level, bots only
    events: list[dict[str, Any]] = field(default_factory=list)
    lobby_changed: bool = False
    records_changed: bool = False  # the match ended: the players' records change
    began: bool = False  # game 1 started in this command: the reconnect windows start
    turns: list[Turn] = field(default_factory=list)  # new move-log rows
    finished_games: list[Game] = field(default_factory=list)  # replaced by the next game
    loaded: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # id(row) -> row_values
    # The match row is new (its id drawn, games/services/starts.py `matches_new`): the first save
    # inserts it, begun, rather than inserting it open and updating it.
    inserting: bool = False
    # Read without the lock (runners.py `play`): the match's and its game's row versions as
    # read, which the write checks (`save_guarded`); None when the rows are locked or new.
    versions: Versions | None = None
    # The engine's state of these rows when it is at hand (the rows were written from it:
    # games/services/kept.py); otherwise built from them.
    state: MatchState | None = None

    def __post_init__(self) -> None:
        if self.state is None:
            self.state = match_state_of(self.match, self.game)
        for row in (self.game,) if self.inserting else (self.match, self.game):
            if row is not None and row.pk is not None:
                self.loaded[id(row)] = row_values(row)
        # The match row's status as PostgreSQL has it (None: not written yet): an ending is
        # announced once, by the command that wrote it.
        self.status_saved = None if self.inserting else self.match.status
        self.turn_at_start = self.open_turn()
        self.deadline_at_start = self.game.turn_deadline if self.game is not None else None
        # `state.match` as the clients last got it: events carry it only when it changed
        # (set once the players are noted).
        self.match_sent: dict[str, Any] | None = None

    # --- Players ---------------------------------------------------------------------------------

    def note_player(
        self, user_id: int, username: str, auto_roll: bool, rating: ShownRating, is_active: bool,
        bot_level: str = "", play_forced: bool = False, confirm_turn: bool = False,
    ) -> None:  # fmt: skip
        self.usernames[user_id] = username
        if bot_level:
            self.bot_levels[user_id] = bot_level
        elif confirm_turn:  # the computer never waits for itself
            self.confirm_turn.add(user_id)
        if play_forced:
            self.play_forced.add(user_id)
        if not is_active:
            self.inactive.add(user_id)
        self.ratings[user_id] = rating
        if auto_roll:
            self.auto_roll.add(user_id)

    def seat_of(self, user: Any) -> int:
        """The seat of a player, from the match row; a watcher is refused."""
        seat = self.match.seat_of(user.pk)
        if seat is None:
            raise CommandError(
                "not_a_player", _("Only the two players can do that; you are watching.")
            )
        if user.pk in self.inactive:
            # The socket of a deactivated user is closed (accounts/signals.py); this refuses what
            # it sent before the close arrived, read from the row locked with the match.
            raise CommandError("account_inactive", _("This account is deactivated."))
        return seat

    def plays_bot(self, seat: int) -> bool:
        """Whether the computer plays ``seat`` (a bot account)."""
        return self.match.player_id(seat) in self.bot_levels

    def dice(self, game: int, roll: int) -> tuple[int, int]:
        """The engine's dice source: this match's provably fair rolls (games/dice.py)."""
        return dice_source.roll(self.match, game, roll)

    def auto_roll_seats(self) -> frozenset[int]:
        return frozenset(seat for seat in (0, 1) if self.match.player_id(seat) in self.auto_roll)

    def forced_seats(self) -> frozenset[int]:
        return frozenset(seat for seat in (0, 1) if self.match.player_id(seat) in self.play_forced)

    def confirm_seats(self) -> frozenset[int]:
        """The seats whose turns wait for `confirm` after the last step ("confirm my turn")."""
        return frozenset(seat for seat in (0, 1) if self.match.player_id(seat) in self.confirm_turn)

    def automation(self) -> dict[str, frozenset[int]]:
        """The players' standing choices the engine acts on: roll for me, play forced turns."""
        return {"auto_roll": self.auto_roll_seats(), "forced": self.forced_seats()}

    # --- The engine ------------------------------------------------------------------------------

    def ask(self, query: Callable[[MatchState], T]) -> T:
        """The engine's answer to a question about the state (a refusal is a CommandError)."""
        try:
            return query(self.state)
        except IllegalMove as error:
            raise refused(error) from None

    def run(self, operation: Operation) -> None:
        """Let the engine decide, then fold each event into the rows and record it."""
        _, decided = self.ask(operation)  # a MatchRuleError or a refused step: CommandError
        for event in decided:
            self.state = apply_event(self.state, event)
            self._follow(event)

    def _follow(self, event: Event) -> None:
        if self.versions is not None and isinstance(event, BEGINS_OR_ENDS):
            # A game or the match begins or ends: new rows, ratings and records are written
            # under the lock only (runners.py `play`), before anything of it is written here.
            raise NeedsLock("begins_or_ends")
        state, match = self.state, self.match
        copy_onto(match, match_values(match, state))
        if isinstance(event, Started):
            self.began = self.began or event.game == 1
            if self.game is not None:
                self.finished_games.append(self.game)
            self.game = new_game_row(match, state.game)  # type: ignore[arg-type]
        elif state.game is not None and self.game is not None:
            copy_onto(self.game, game_values(state.game))
        if isinstance(event, TurnEnded):
            self.turns.append(
                Turn(
                    game=self.game, number=event.number, side=event.side,
                    player_id=match.player_id(event.seat), dice=list(event.dice),
                    roll=event.roll, steps=[step_to_wire(step) for step in event.steps],
                    board_after=list(event.board_after), by_server=event.by_server,
                    doubled_to=event.doubled_to, started_at=event.started_at,
                    finished_at=event.finished_at,
                )
            )  # fmt: skip
        if isinstance(event, BEGINS_OR_ENDS):
            self.lobby_changed = True
        if isinstance(event, MatchOver):
            self.records_changed = True  # the players' profile records (ratings/counts.py)
        wire = event_detail(event)
        if wire is None:
            return  # shown by the event that follows it (games/protocol/events.py)
        kind, detail = wire
        if isinstance(event, MatchOver) and event.winner_seat is not None and match.rated:
            applied = self._apply_ratings(event.winner_seat)
            # One entry per seat, as docs/protocol.md `match_over` shows them.
            detail["rating_changes"] = [applied.get(match.player_id(seat)) for seat in (0, 1)]
        self.record(kind, detail)

    def _apply_ratings(self, winner_seat: int) -> dict[int, Any]:
        """The ratings' part of the match end (games/services/match_ratings.py); the players'
        shown ratings follow it."""
        applied, ratings = match_ratings_apply(match=self.match, winner_seat=winner_seat)
        self.ratings.update(ratings)
        return applied

    # --- Events ----------------------------------------------------------------------------------

    def match_section(self) -> dict[str, Any]:
        return match_section(
            self.match, self.state, usernames=self.usernames, ratings=self.ratings,
            bots=set(self.bot_levels),
        )  # fmt: skip

    def record(self, kind: str, detail: dict[str, Any]) -> None:
        """Bump the version and keep the event with the state as it is now: the game, and the
        match when it changed. The move log is left out: `turn` events carry each new entry."""
        self.match.version += 1
        state: dict[str, Any] = {"game": game_state(self.state, self.now)}
        section = self.match_section()
        if section != self.match_sent:
            state["match"] = self.match_sent = section
        self.events.append(
            {"type": "event", "version": self.match.version, "kind": kind, "detail": detail,
             "state": state}
        )  # fmt: skip

    def open_turn(self) -> tuple[int, int] | None:
        """(game row id, turn number) of the turn being played (the state's ``open_turn``, with
        the row's id the deadline task names), None when none is."""
        turn = self.state.open_turn()
        if turn is None or self.game is None:
            return None
        return (self.game.pk, turn[1])

    # --- Persist, and what follows the commit ----------------------------------------------------

    def save(self) -> None:
        """Write what changed (update_fields), the new games and move-log rows; what the command
        leaves for others (events, tasks) is done after commit (games/effects.py)."""
        save_all([self])

    def save_guarded(self) -> bool:
        """The write of a context read without the lock: the match row, its game's and the move
        log's new rows in one statement that writes only if neither row changed since they were
        read (hot_path.write_rows_guarded), then what follows (at once: no transaction is open).
        True with `versions` now the rows' new ones; False, with nothing written, when one
        changed; NeedsLock when the command did more or less than change those two rows
        (runners.py `play` runs it again under the lock either way)."""
        new, changes = self._rows()
        fields = {id(row): names for row, names in changes}
        match_fields, game_fields = fields.get(id(self.match)), fields.get(id(self.game))
        if new or len(changes) != 2 or not match_fields or not game_fields:
            raise NeedsLock("other_rows")
        written = write_rows_guarded(
            self.match, match_fields, self.game, game_fields, self.turns, self.versions
        )
        if written is None:
            return False
        self.versions = written
        effects.on_commit(self._saved())
        return True

    def _rows(self) -> tuple[list[Model], list[tuple[Model, list[str]]]]:
        """The rows to insert and the changed fields of the loaded ones."""
        match = self.match
        new, changes = [], []
        if self.inserting:
            new.append(match)  # first: its games name it
        elif self.now - match.last_activity_at >= ACTIVITY_PRECISION:
            match.last_activity_at = self.now
        for row in [*self.finished_games, self.game, *([] if self.inserting else [match])]:
            if row is None:
                continue
            if row.pk is None:
                new.append(row)  # a new game
            elif fields := changed_fields(row, self.loaded[id(row)]):
                changes.append((row, fields))
        return new, changes

    def _saved(self) -> Effects:
        """After the rows are written: an ending's hook and records, the state as loaded now,
        and what follows the commit."""
        match = self.match
        if match.status in ENDED and self.status_saved != match.status:
            transaction.on_commit(partial(announce_ended, match.pk))
        finished = self.records_changed and match.status == MatchStatus.FINISHED
        if finished:
            # It ended in this command (not aborted), its games written: into both players'
            # records, in this transaction (once, whoever calls: ratings/counts.py).
            record_count_match(match=match)
        for row in (match, self.game):
            if row is not None:
                self.loaded[id(row)] = row_values(row)
        self.status_saved = match.status
        self.finished_games, self.turns, self.inserting = [], [], False
        after = self.follow_up(finished=finished)
        self.events, self.records_changed, self.began = [], False, False
        return after

    def follow_up(self, *, finished: bool = False) -> Effects:
        """What this command leaves for after its commit (games/services/follow_up.py);
        `finished`: the match ended with a result in it."""
        return command_effects(
            match=self.match, game=self.game, events=list(self.events),
            lobby_changed=self.lobby_changed, turn=self.open_turn(),
            turn_at_start=self.turn_at_start, deadline_at_start=self.deadline_at_start,
            bot_levels=self.bot_levels, began=self.began, finished=finished,
        )  # fmt: skip


def save_all(contexts: Sequence[Locked]) -> None:
    """`Locked.save` of the commands of one transaction, each kind of write in one statement
    (one command, or the matches a tournament's pairing wave begins: games/services/starts.py),
    and one after-commit value for them all."""
    new: list[Model] = []
    changes: list[tuple[Model, list[str]]] = []
    turns: list[Turn] = []
    for context in contexts:
        rows, changed = context._rows()
        new += rows
        changes += changed
        turns += context.turns
    for model in dict.fromkeys(type(row) for row in new):  # the models in order
        model.objects.bulk_create([row for row in new if type(row) is model])
    for turn in turns:
        turn.game_id = turn.game.pk  # its game may be one inserted just above
    write_rows(changes, turns)
    effects.on_commit(Effects.combined([context._saved() for context in contexts]))


# A started match ends finished or aborted; cancelled is a challenge that never started.
ENDED = (MatchStatus.FINISHED, MatchStatus.ABORTED)


def announce_ended(match_id: int) -> None:
    """Tell the apps above that the match ended (games/hooks.py `match_ended`), after commit."""
    send_to_all(match_ended, "match_ended", f"match {match_id}", sender=Match, match_id=match_id)


class NeedsLock(Exception):  # noqa: N818 - a signal to runners.py `play`, not an error
    """A command run on a context read without the lock must run under it; `reason` says why:
    "begins_or_ends" (a game or the match began or ended), "other_rows" (it wrote more or less
    than the match row and its game's)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def context_of(
    match: Match,
    game: Game | None,
    players: Sequence[Player],
    *,
    inserting: bool = False,
    versions: Versions | None = None,
    state: MatchState | None = None,
    match_sent: dict[str, Any] | None = None,
) -> Locked:
    """The context of rows this transaction holds (locked, or new: `inserting`, a match row that
    nobody else sees before the commit), or of rows read without a lock at `versions`, with
    their players; `state` and `match_sent` when the rows are kept ones (games/services/kept.py)."""
    context = Locked(
        match=match, game=game, now=timezone.now(), inserting=inserting, versions=versions,
        state=state,
    )  # fmt: skip
    for player in players:
        context.note_player(
            player.id, player.username, player.auto_roll,
            ShownRating.of(player.rating, player.experience), player.is_active, player.bot_level,
            player.play_forced, player.confirm_turn,
        )  # fmt: skip
    context.match_sent = match_sent if match_sent is not None else context.match_section()
    return context
