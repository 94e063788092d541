"""Every non-trivial read: snapshots, the lobby, live matches, a player's history, match exports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Case, F, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import hooks
from games.models import Game, Match, MatchStatus, TimeControl, Turn
from games.protocol import (
    MoveState,
    fairness_state,
    match_settings,
    match_state,
    move_of_turn,
    opening_state,
)
from games.services.challenges import challenge_payload
from games.services.state_rows import match_state_of, opening_of
from nardy.match import rating_in_range
from nardy.ruleset import SEED_CLOCK_NAMES
from ratings.models import INITIAL_RATING
from ratings.selectors import ratings_of

LOBBY_LIMIT = 100
# The home page's small live boards (games/live_boards.py): this many matches at most.
LIVE_BOARDS_SHOWN = 6


def current_game(match: Match) -> Game | None:
    return match.games.order_by("-number").first()


def game_moves(game: Game | None) -> list[MoveState]:
    """A game's move log as wire dicts (read as plain values: no model instances on this hot path,
    which every command and snapshot takes)."""
    if game is None:
        return []
    rows = Turn.objects.filter(game=game).order_by("number")
    return [
        {"number": number, "side": side, "dice": list(dice), "roll": roll, "steps": steps,
         "by_server": by_server, "doubled_to": doubled_to}
        for number, side, dice, roll, steps, by_server, doubled_to in rows.values_list(
            "number", "side", "dice", "roll", "steps", "by_server", "doubled_to"
        )
    ]  # fmt: skip


# A match that never started: an open challenge, or one cancelled, declined or lapsed (all three
# `cancelled`). None has a chat; a private one stays its parties' (`match_parties`), while a
# private match that started (an accepted invite, a rematch, a pairing) is watched like any other.
NEVER_STARTED = (MatchStatus.OPEN, MatchStatus.CANCELLED)


def match_parties(match: Match) -> frozenset[int] | None:
    """Who may see a private challenge that never started, for ever: its creator and the player
    it was sent to (an invite link's other party holds the link, games/views.py), and staff
    (`may_see_match`). None: anyone may watch the match."""
    if not match.private or match.status not in NEVER_STARTED:
        return None
    return frozenset(pk for pk in (match.creator_id, match.invited_id) if pk is not None)


def may_see_match(parties: frozenset[int] | None, user) -> bool:
    """Whether `user` (None or anonymous: a visitor) may see a match with these parties."""
    if parties is None:
        return True
    if user is None or not user.is_authenticated:
        return False
    return user.pk in parties or user.is_staff


@dataclass(frozen=True)
class Snapshot:
    """A match as committed at one instant: its version and wire state, and who sits where."""

    version: int
    state: dict[str, Any]
    seats: dict[int, int]  # user id -> seat (from the match row, never from names)
    parties: frozenset[int] | None  # a private challenge's only viewers (with staff), else None

    @property
    def status(self) -> str:
        return self.state["match"]["status"]


def match_snapshot(match_id: int) -> Snapshot | None:
    """A match as it is committed now, or None when it does not exist.

    The three reads (match, current game, move log) run in one REPEATABLE READ transaction, so
    they see one instant: read one by one, a command committed between them gave a snapshot
    labelled v holding the game of v+k, and the client appended the same turn twice.
    """
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        match = Match.objects.select_related("creator", "opponent").filter(pk=match_id).first()
        if match is None:
            return None
        game = current_game(match)
        moves = game_moves(game)
        users = [user for user in (match.creator, match.opponent) if user is not None]
        rating_values = ratings_of([user.pk for user in users])
    state = match_state(
        match,
        match_state_of(match, game),
        moves,
        usernames={user.pk: user.username for user in users},
        ratings=rating_values,
        now=timezone.now(),
        bots={user.pk for user in users if user.is_bot},
    )
    seats = {user_id: seat for seat in (0, 1) if (user_id := match.player_id(seat)) is not None}
    return Snapshot(
        version=match.version,
        state=state,
        seats=seats,
        parties=match_parties(match),
    )


def open_challenges() -> QuerySet[Match]:
    return (
        Match.objects.filter(status=MatchStatus.OPEN, private=False)
        .select_related("creator")
        .order_by("-created_at")[:LOBBY_LIMIT]
    )


def _being_played() -> QuerySet[Match]:
    """The live matches being played: a correspondence match is played over days, not watched
    live (games/correspondence_list.py lists them)."""
    return (
        Match.objects.filter(status=MatchStatus.ACTIVE)
        .exclude(time_control=TimeControl.CORRESPONDENCE)
        .select_related("creator", "opponent")
    )


def live_matches() -> QuerySet[Match]:
    return _being_played().order_by("-started_at")[:LOBBY_LIMIT]


def _players(match: Match, ratings: dict[int, Any]) -> list[dict[str, Any]]:
    """A match's two players in seat order as the lobby and the live boards show them."""
    return [
        {
            "username": player.username,
            "rating": ratings[player.pk].value,
            "provisional": ratings[player.pk].provisional,
            "score": score,
        }
        for player, score in (
            (match.creator, match.score_creator),
            (match.opponent, match.score_opponent),
        )
    ]


def lobby_state() -> dict[str, Any]:
    """The Play and Watch pages' lists (docs/protocol.md "The lobby socket"). Spectator counts
    live in Redis, not here: the lobby socket fills them in (games/consumers.py)."""
    challenges = list(open_challenges())
    live = list(live_matches())
    user_ids = {match.creator_id for match in challenges}
    for match in live:
        user_ids.update((match.creator_id, match.opponent_id))
    ratings = ratings_of(sorted(user_ids))
    return {
        "type": "lobby",
        "open": [
            {
                "id": match.pk,
                "creator": match.creator.username,
                "rating": ratings[match.creator_id].value,
                "provisional": ratings[match.creator_id].provisional,
                "rules": match.rule_set_name,
                "cube": match.doubling_cube,
                "length": match.length,
                "turn_seconds": match.turn_seconds,
                "reserve_seconds": match.reserve_seconds,
                "time_control": match.time_control,
                "move_days": match.move_days,
                "clock_name": SEED_CLOCK_NAMES.get(match.time_control, ""),
                "rated": match.rated,
                "min_rating": match.min_rating,
                "max_rating": match.max_rating,
            }
            for match in challenges
        ],
        "live": [
            {
                "id": match.pk,
                "players": _players(match, ratings),
                "rules": match.rule_set_name,
                "cube": match.doubling_cube,
                "length": match.length,
                "rated": match.rated,
                "spectators": 0,
            }
            for match in live
        ],
    }


def current_boards(match_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Each match's current game as a small board draws it (its stored board, the dice, whose
    turn, the seat playing White): one indexed read, the last game of each match. The tournament
    page's top games and the home page's live boards."""
    rows = (
        Game.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "-number")
        .distinct("match_id")
        .values("match_id", "board", "dice", "turn", "white_seat")
    )
    return {row.pop("match_id"): row for row in rows}


def live_boards(limit: int = LIVE_BOARDS_SHOWN) -> list[dict[str, Any]]:
    """The live matches of the highest-rated players (both ratings summed, a player without a
    rated match at the initial rating), matches against the computer after those of two people,
    each with its players, score and current board: the home page's small live boards. Three
    reads however many matches are live: the matches, their ratings, their boards."""
    initial = Value(INITIAL_RATING)
    matches = list(
        _being_played()
        .alias(
            against_computer=Case(
                When(Q(creator__is_bot=True) | Q(opponent__is_bot=True), then=Value(1)),
                default=Value(0),
            ),
            strength=Coalesce(F("creator__rating__value"), initial)
            + Coalesce(F("opponent__rating__value"), initial),
        )
        .order_by("against_computer", "-strength", "-started_at")[:limit]
    )
    ratings = ratings_of(sorted({m.creator_id for m in matches} | {m.opponent_id for m in matches}))
    boards = current_boards([match.pk for match in matches])
    return [
        {
            "match_id": match.pk,
            "players": [
                {**player, "side": "w" if seat == board["white_seat"] else "b"}
                for seat, player in enumerate(_players(match, ratings))
            ],
            "length": match.length,
            "board": board["board"],
            "dice": board["dice"],
            "turn": board["turn"],
        }
        for match in matches
        if (board := boards.get(match.pk)) is not None
    ]


def live_match_count() -> int:
    return _being_played().count()


def challenges_visible(
    open_list: list[dict[str, Any]], *, username: str | None, rating: int | None
) -> list[dict[str, Any]]:
    """The open challenges a viewer may accept (their rating inside each one's range), and their
    own; everyone's for a visitor who is not signed in."""
    if rating is None:
        return open_list
    return [
        challenge
        for challenge in open_list
        if challenge["creator"] == username
        or rating_in_range(rating, challenge["min_rating"], challenge["max_rating"])
    ]


def pending_challenges(user_id: int) -> list[dict[str, Any]]:
    """The direct challenges still waiting for this player's answer, as notifications (a page
    opened after one was sent shows it too)."""
    now = timezone.now()
    matches = list(
        Match.objects.filter(invited_id=user_id, status=MatchStatus.OPEN, expires_at__gt=now)
        .select_related("creator")
        .order_by("created_at")
    )
    ratings = ratings_of([match.creator_id for match in matches])
    return [challenge_payload(match, ratings[match.creator_id].value) for match in matches]


def player_matches(user) -> QuerySet[Match]:
    return (
        Match.objects.filter(Q(creator=user) | Q(opponent=user))
        .exclude(status=MatchStatus.CANCELLED)
        .select_related("creator", "opponent", "winner")
        .order_by("-created_at")
    )


def player_open_match(user) -> Match | None:
    """The live match (or challenge) the player is in now; correspondence ones are listed apart
    (games/correspondence_list.py)."""
    return (
        player_matches(user)
        .filter(status__in=[MatchStatus.OPEN, MatchStatus.ACTIVE])
        .exclude(time_control=TimeControl.CORRESPONDENCE)
        .first()
    )


def _unfinished_turn(game: Game) -> dict[str, Any] | None:
    """The turn a match ended in after its roll (resigned, left, aborted): not in the move log."""
    logged = max((turn.number for turn in game.turns.all()), default=0)
    if not game.dice or game.roll is None or game.turn_number <= logged:
        return None
    return {
        "number": game.turn_number,
        "side": game.turn,
        "dice": list(game.dice),
        "roll": game.roll,
    }


def fairness_with_seed_origin(match: Match) -> dict[str, Any]:
    """`fairness_state` and whether the server drew both client seeds (a tournament match:
    games/hooks.py `client_seeds_drawn_by_server`), for the match and replay pages and the
    export; the live state leaves it out (the page has it from its first render)."""
    return {
        **fairness_state(match),
        "client_seeds_drawn_by_server": hooks.client_seeds_drawn_by_server(match.pk),
    }


def match_export(match: Match) -> dict[str, Any]:
    """The whole match as JSON: settings, players, result and every turn of every game."""
    players = {0: match.creator, 1: match.opponent}
    games = []
    for game in match.games.order_by("number").prefetch_related("turns"):
        white = players[game.white_seat]
        black = players[1 - game.white_seat]
        games.append(
            {
                "number": game.number,
                "white_seat": game.white_seat,
                "white": white.username,
                "black": black.username,
                "opening": opening_state(opening_of(game)),
                "start_board": list(game.start_board),
                "result": game.result or None,
                "winner": game.winner_side or None,
                "points": game.points,
                # The doubling cube at the game's end (matches with the cube only).
                "cube": {
                    "value": game.cube_value,
                    "owner": game.cube_owner,
                    "crawford": game.number == match.crawford_game,
                }
                if match.doubling_cube
                else None,
                "turns": [
                    {
                        **move_of_turn(turn),
                        "player": players[game.seat_of_side(turn.side)].username,
                        "board_after": list(turn.board_after),
                        "started_at": turn.started_at.isoformat(),
                        "finished_at": turn.finished_at.isoformat(),
                    }
                    for turn in sorted(game.turns.all(), key=lambda turn: turn.number)
                ],
                # Fair dice (games/fairness): rolls drawn in the game, and the dice of a turn the
                # match ended in (resigned or aborted after the roll) that has no move-log entry.
                "rolls": game.rolls,
                "unfinished_turn": _unfinished_turn(game),
            }
        )
    return {
        "match": {
            **match_settings(match),
            "players": [
                {"seat": seat, "username": user.username}
                for seat, user in players.items()
                if user is not None
            ],
            "winner_seat": match.seat_of(match.winner_id),
            "end_reason": match.end_reason or None,
            "score": [match.score_creator, match.score_opponent],
            "fairness": fairness_with_seed_origin(match),
            "started_at": match.started_at.isoformat() if match.started_at else None,
            "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        },
        "games": games,
        # The post-match analysis once stored, else null (docs/protocol.md, "Post-match analysis
        # and the match export").
        "analysis": hooks.export_analysis(match.pk),
    }


def own_turns_played(match_id: int, user_id: int) -> int:
    """The turns of the match that the player played themselves, over all its games: not the
    ones the server played for them when their time ran out (`by_server`). Arena scoring asks it
    of a match's loser (docs/rules.md "Arena tournaments", item 3)."""
    return Turn.objects.filter(game__match_id=match_id, player_id=user_id, by_server=False).count()
