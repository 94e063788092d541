"""The `state` of a snapshot and its parts, built from the match rows (docs/protocol.md
"Snapshot"); the engine knows nothing of JSON."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, TypedDict

from games.fairness import commitment
from games.protocol.commands import (
    WireStep,
    step_to_wire,
    steps_from_json,
)
from games.rules import (
    TurnState,
    borne_off,
    combined_moves,
    is_turn_complete,
    legal_next_steps,
    pip_count,
    remaining_dice,
)
from games.rules.clock import TimeControl, read_clock
from games.rules.cube import may_double, raised_value
from games.rules.ruleset import OPTION_VALUES
from ratings.models import NEW_PLAYER, ShownRating


class PlayerState(TypedDict):
    seat: int
    username: str
    rating: int
    provisional: bool  # shown with "?" (ratings/elo.py PROVISIONAL_EXPERIENCE)
    score: int
    side: str | None
    timeouts: int
    bot: bool  # the computer plays this seat (docs/protocol.md, match.players[i].bot)


class MoveState(TypedDict):
    number: int
    side: str
    dice: list[int]
    roll: int | None
    steps: list[WireStep]
    by_server: bool
    doubled_to: int  # the cube's value after a double taken before this turn's roll (0: none)


Phase = Literal["roll", "move", "over"]


def rules_state(match) -> dict[str, Any]:
    """The rule set's name and each engine option (games/rules/ruleset.py OPTION_VALUES)."""
    rules = match.rules
    return {
        "name": match.rule_set_name,
        **{option: getattr(rules, option) for option in OPTION_VALUES},
    }


def turn_state_of(match, game) -> TurnState | None:
    """The engine's view of the turn in progress (None until the dice are rolled)."""
    if game is None or game.phase != "move" or not game.dice:
        return None
    return TurnState(
        start_board=tuple(game.turn_board),
        side=game.turn,
        dice=(game.dice[0], game.dice[1]),
        first_turn=not game.has_moved(game.turn),
        rules=match.rules,
        steps=steps_from_json(game.steps),
        board=tuple(game.board),
    )


def match_settings(match) -> dict[str, Any]:
    """What a match is: shared by the live state and the JSON export."""
    return {
        "id": match.pk,
        "status": match.status,
        "length": match.length,
        "rated": match.rated,
        "rules": rules_state(match),
        "time_control": match.time_control,
        "turn_seconds": match.turn_seconds,
        "reserve_seconds": match.reserve_seconds,
    }


def fairness_state(match) -> dict[str, Any]:
    """The dice's commitment and seeds (games/fairness): the server seed only once revealed."""
    return {
        "verifiable": match.dice_source == "fair",
        "dice_source": match.dice_source,
        "server_seed_hash": match.server_seed_hash or None,
        "server_seed": match.server_seed if match.seed_revealed and match.server_seed else None,
        "client_seeds": [seed or None for seed in match.client_seeds],
    }


def opening_state(game) -> dict[str, Any] | None:
    """Game 1's one-die opening roll with its ties; later games have none (the winner starts)."""
    if game.opening_white is None:
        return None
    return {"white": game.opening_white, "black": game.opening_black, "ties": game.opening_ties}


def clock_state(match, game, now: datetime) -> dict[str, Any]:
    """Times in ms measured now by the server; the page counts down and never decides
    (the arithmetic is the engine's, games/rules/clock.py)."""
    reserve: dict[str, int | None] = {"w": None, "b": None}
    clock_side = None
    if game is not None:
        for side in ("w", "b"):
            reserve[side] = match.reserve_ms(game.seat_of_side(side))
        # While a double awaits an answer the answerer's clock runs (games/rules/cube.py).
        clock_side = (
            game.turn if game.cube_offer is None else game.side_of_seat(1 - game.cube_offer)
        )
    running = match.status == "active" and game is not None and game.phase != "over"
    turn_ms_left = deadline_ms_left = None
    control = TimeControl(match.time_control, match.turn_seconds, match.reserve_seconds)
    if control.timed and game is not None and running:
        reading = read_clock(
            control, reserve[clock_side] or 0, game.turn_started_at,
            game.clock_started_at or game.turn_started_at, now,
        )  # fmt: skip
        turn_ms_left, deadline_ms_left = reading.turn_ms_left, reading.deadline_ms_left
        reserve[clock_side] = reading.mover_reserve_ms
    return {
        "turn_ms_left": turn_ms_left, "deadline_ms_left": deadline_ms_left, "reserve_ms": reserve,
        "running": running, "side": clock_side,
    }  # fmt: skip


def cube_state(match, game) -> dict[str, Any] | None:
    """The doubling cube (None in matches without it): its value, the seat that may raise it
    (None: either), a pending offer's seat, whether the mover may double now, and whether this
    is the Crawford game."""
    if not match.doubling_cube or game is None:
        return None
    crawford = game.number == match.crawford_game
    mover = game.seat_of_side(game.turn)
    allowed = match.status == "active" and may_double(
        match.rules, mover, mover_seat=mover, phase=game.phase, offer=game.cube_offer,
        owner=game.cube_owner, value=game.cube_value, crawford=crawford,
    )  # fmt: skip
    return {
        "value": game.cube_value,
        "owner": game.cube_owner,
        "offered_by": game.cube_offer,
        "offered_value": raised_value(game.cube_value, match.rules)
        if game.cube_offer is not None
        else None,
        "may_double": allowed,
        "crawford": crawford,
    }


def game_state(match, game, now: datetime) -> dict[str, Any] | None:
    if game is None:
        return None
    board = tuple(game.board)
    turn = turn_state_of(match, game)
    legal: list[WireStep] = []
    combined: list[list[WireStep]] = []
    dice_left: list[int] = []
    if turn is not None:
        legal = [step_to_wire(step) for step in legal_next_steps(turn)]
        combined = [[step_to_wire(step) for step in path] for path in combined_moves(turn)]
        dice_left = list(remaining_dice(turn))
    return {
        "number": game.number,
        "phase": game.phase,
        "turn": game.turn,
        "turn_number": game.turn_number,
        "board": list(board),
        "dice": list(game.dice) if game.dice else None,
        "roll": game.roll,
        "dice_left": dice_left,
        "steps": game.steps,
        "legal_steps": legal,
        "combined_moves": combined,
        "can_undo": bool(
            match.undo_allowed and turn is not None and game.steps and not is_turn_complete(turn)
        ),
        "opening": opening_state(game),
        "borne_off": {"w": borne_off(board, "w"), "b": borne_off(board, "b")},
        "pips": {"w": pip_count(board, "w"), "b": pip_count(board, "b")},
        "result": (
            {"winner": game.winner_side, "result": game.result, "points": game.points}
            if game.result
            else None
        ),
        "clock": clock_state(match, game, now),
        "cube": cube_state(match, game),
    }


def match_section(
    match, game, *, usernames: dict[int, str], ratings: dict[int, ShownRating],
    bots: frozenset[int] | set[int] = frozenset(),
) -> dict[str, Any]:  # fmt: skip
    """The `state.match` object: the match, its players and their scores."""
    players: list[PlayerState] = []
    for seat in (0, 1):
        user_id = match.player_id(seat)
        if user_id is None:
            continue
        rating = ratings.get(user_id, NEW_PLAYER)
        players.append(
            {
                "seat": seat,
                "username": usernames.get(user_id, "?"),
                "rating": rating.value,
                "provisional": rating.provisional,
                "score": match.scores[seat],
                "side": game.side_of_seat(seat) if game is not None else None,
                "timeouts": match.timeouts(seat),
                "bot": user_id in bots,
            }
        )
    return {
        **match_settings(match),
        "players": players,
        "winner": match.seat_of(match.winner_id),
        "end_reason": match.end_reason or None,
        # Either player may abort until each has made a first move (docs/rules.md, Platform rules).
        "abortable": match.status == "active"
        and game is not None
        and game.number == 1
        and not (game.white_has_moved and game.black_has_moved),
        "aborted_by": match.aborted_by_seat,
        "fairness": fairness_state(match),
        "rematch": {
            # The offered rematch's commitment (its seed is revealed when that match ends).
            "server_seed_hash": (
                commitment(match.rematch_server_seed) if match.rematch_server_seed else None
            ),
            "offered_by": match.rematch_offered_by,
            "declined": match.rematch_declined,
            "match_id": match.rematch_id,
        },
    }


def match_state(
    match,
    game,
    moves: list[MoveState],
    *,
    usernames: dict[int, str],
    ratings: dict[int, ShownRating],
    now: datetime,
    bots: frozenset[int] | set[int] = frozenset(),
) -> dict[str, Any]:
    """The whole `state` object of a snapshot (docs/protocol.md)."""
    return {
        "match": match_section(match, game, usernames=usernames, ratings=ratings, bots=bots),
        "game": game_state(match, game, now),
        "moves": moves,
    }


def move_of_turn(turn) -> MoveState:
    return {
        "number": turn.number,
        "side": turn.side,
        "dice": list(turn.dice),
        "roll": turn.roll,
        "steps": turn.steps,
        "by_server": turn.by_server,
        "doubled_to": turn.doubled_to,
    }
