"""The engine's `MatchState` to and from the Match and Game rows (nardy/match).

The rows are what PostgreSQL keeps; the state is what the rules reason about. Services load rows,
turn them into a state here, let the engine decide, and copy the new state back onto the rows.
A row's snapshot (`row_values`), taken as it was loaded, tells which of its columns a command
changed (`changed_fields`): only those are written.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any

from django.db.models import Model

from games.models import Game, Match
from games.protocol import step_to_wire, steps_from_json
from nardy import MatchScore
from nardy.match import Challenge, GameState, MatchState, OpeningRoll, Rematch


@cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


@cache
def _reader(model: type[Model]) -> Callable[[Model], tuple[Any, ...]]:
    # One attrgetter per model reads every column in one C call: a snapshot is taken three times
    # per command (loaded, compared, saved), and the dict it replaced was 3 % of a Daphne process
    # under bench/live_load.py. Match and Game have many columns, so the getter returns a tuple.
    return attrgetter(*_attnames(model))


def row_values(row: Model) -> tuple[Any, ...]:
    """A snapshot of the row's column values, in `_meta.concrete_fields` order."""
    return _reader(type(row))(row)


def changed_fields(row: Model, loaded: tuple[Any, ...]) -> list[str]:
    return [
        name
        for name, was, now in zip(_attnames(type(row)), loaded, row_values(row), strict=True)
        if was != now
    ]


# End reasons that lose the whole match for the other seat (docs/rules.md, Who starts, colours,
# games and matches): the score remembers the loser, so the engine knows the winner.
FORFEITS = ("resigned", "left", "timeouts", "time", "abandoned", "banned")


def match_state_of(match: Match, game: Game | None) -> MatchState:
    score = MatchScore(match.length, match.scores)
    if match.status == "finished" and match.end_reason in FORFEITS:
        winner_seat = match.seat_of(match.winner_id)
        score = MatchScore(match.length, match.scores, resigned=1 - winner_seat)  # type: ignore[operator, arg-type]
    return MatchState(
        rules=match.rules,
        turn_seconds=match.turn_seconds,
        reserve_seconds=match.reserve_seconds,
        time_control=match.time_control,
        move_days=match.move_days,
        status=match.status,  # type: ignore[arg-type]
        score=score,
        timeouts=(match.timeouts_creator, match.timeouts_opponent),
        reserve_ms=(match.reserve_ms_creator, match.reserve_ms_opponent),
        end_reason=match.end_reason,  # type: ignore[arg-type]
        started_at=match.started_at,
        finished_at=match.finished_at,
        game=game_state_of(game) if game is not None else None,
        crawford_game=match.crawford_game,
        aborted_by=match.aborted_by_seat,  # type: ignore[arg-type]
        players=(match.creator_id, match.opponent_id),
        client_seeds=(match.client_seed_creator, match.client_seed_opponent),
        challenge=challenge_of(match),
        rematch=Rematch(
            offered_by=match.rematch_offered_by,  # type: ignore[arg-type]
            declined=match.rematch_declined,
            client_seed=match.rematch_client_seed,
            server_seed=match.rematch_server_seed,
            match_id=match.rematch_id,
        ),
    )


def challenge_of(match: Match) -> Challenge:
    """Who may take seat 1: an invite link (a private challenge to nobody in particular) needs
    its token."""
    link = match.private and match.invited_id is None
    return Challenge(
        rated=match.rated, invited=match.invited_id,
        invite_token=match.invite_token if link else None, expires_at=match.expires_at,
        min_rating=match.min_rating, max_rating=match.max_rating,
    )  # fmt: skip


def opening_of(game: Game) -> OpeningRoll | None:
    """A game's opening roll with its ties (game 1's, and every game's with `opening_roll`)."""
    if game.opening_white is None:
        return None
    ties = tuple((first, second) for first, second in game.opening_ties)
    return OpeningRoll(game.opening_white, game.opening_black, ties)  # type: ignore[arg-type]


def game_state_of(game: Game) -> GameState:
    return GameState(
        number=game.number,
        white_seat=game.white_seat,  # type: ignore[arg-type]
        turn_started_at=game.turn_started_at,
        opening=opening_of(game),
        board=tuple(game.board),
        turn_board=tuple(game.turn_board),
        turn=game.turn,  # type: ignore[arg-type]
        phase=game.phase,  # type: ignore[arg-type]
        dice=(game.dice[0], game.dice[1]) if game.dice else None,
        roll=game.roll,
        rolls=game.rolls,
        steps=steps_from_json(game.steps),
        turn_number=game.turn_number,
        white_has_moved=game.white_has_moved,
        black_has_moved=game.black_has_moved,
        turn_deadline=game.turn_deadline,
        clock_started_at=game.clock_started_at,
        steps_timed=game.steps_timed,
        result=game.result,
        winner_side=game.winner_side,  # type: ignore[arg-type]
        points=game.points,
        finished_at=game.finished_at,
        cube_value=game.cube_value,
        cube_owner=game.cube_owner,  # type: ignore[arg-type]
        cube_offer=game.cube_offer,  # type: ignore[arg-type]
        cube_offer_by_server=game.cube_offer_by_server,
        turn_doubled_to=game.turn_doubled_to,
    )


def match_values(match: Match, state: MatchState) -> dict[str, Any]:
    """The Match row's fields that the match state decides."""
    winner_seat = state.winner_seat
    rematch = state.rematch
    return {
        "opponent_id": state.players[1],
        "client_seed_creator": state.client_seeds[0],
        "client_seed_opponent": state.client_seeds[1],
        "rematch_offered_by": rematch.offered_by,
        "rematch_declined": rematch.declined,
        "rematch_client_seed": rematch.client_seed,
        "rematch_server_seed": rematch.server_seed,
        "rematch_id": rematch.match_id,
        "status": state.status,
        "score_creator": state.score.points[0],
        "score_opponent": state.score.points[1],
        "timeouts_creator": state.timeouts[0],
        "timeouts_opponent": state.timeouts[1],
        "reserve_ms_creator": state.reserve_ms[0],
        "reserve_ms_opponent": state.reserve_ms[1],
        "winner_id": state.players[winner_seat] if winner_seat is not None else None,
        "end_reason": state.end_reason,
        "started_at": state.started_at,
        "finished_at": state.finished_at,
        "crawford_game": state.crawford_game,
        "aborted_by_seat": state.aborted_by,
    }


def game_values(game: GameState) -> dict[str, Any]:
    """A Game row's fields, as the game state has them."""
    opening = game.opening
    return {
        "number": game.number,
        "white_seat": game.white_seat,
        "opening_white": opening.white if opening else None,
        "opening_black": opening.black if opening else None,
        "opening_ties": [list(tie) for tie in opening.ties] if opening else [],
        "board": list(game.board),
        "turn_board": list(game.turn_board),
        "turn": game.turn,
        "phase": game.phase,
        "dice": list(game.dice) if game.dice else None,
        "roll": game.roll,
        "rolls": game.rolls,
        "steps": [step_to_wire(step) for step in game.steps],
        "turn_number": game.turn_number,
        "white_has_moved": game.white_has_moved,
        "black_has_moved": game.black_has_moved,
        "turn_started_at": game.turn_started_at,
        "turn_deadline": game.turn_deadline,
        "clock_started_at": game.clock_started_at,
        "steps_timed": game.steps_timed,
        "result": game.result,
        "winner_side": game.winner_side,
        "points": game.points,
        "finished_at": game.finished_at,
        "cube_value": game.cube_value,
        "cube_owner": game.cube_owner,
        "cube_offer": game.cube_offer,
        "cube_offer_by_server": game.cube_offer_by_server,
        "turn_doubled_to": game.turn_doubled_to,
    }


def copy_onto(row: Match | Game, values: dict[str, Any]) -> None:
    for name, value in values.items():
        setattr(row, name, value)


def new_game_row(match: Match, game: GameState) -> Game:
    """An unsaved Game row for a game the engine has just started."""
    row = Game(match=match, start_board=list(game.board), **game_values(game))
    return row
