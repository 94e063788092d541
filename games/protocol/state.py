"""The `state` of a snapshot and its parts, built from the engine's `MatchState` (docs/protocol.md
"Snapshot"), with the few facts of the rows the state does not hold (ids, usernames, ratings,
bots, the seeds' commitment); the engine knows nothing of JSON. games/services/state_rows.py
turns rows into a state."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, TypedDict

from games.fairness import commitment
from games.protocol.commands import WireStep, step_to_wire
from nardy import (
    borne_off,
    combined_moves,
    is_turn_complete,
    legal_next_steps,
    pip_count,
    remaining_dice,
)
from nardy.clock import read_clock
from nardy.cube import raised_value
from nardy.match import MatchState, OpeningRoll, awaiting_confirm
from nardy.ruleset import OPTION_VALUES
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
    """The rule set's name and each engine option (nardy/ruleset.py OPTION_VALUES)."""
    rules = match.rules
    return {
        "name": match.rule_set_name,
        **{option: getattr(rules, option) for option in OPTION_VALUES},
    }


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
        "move_days": match.move_days,
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


def opening_state(opening: OpeningRoll | None) -> dict[str, Any] | None:
    """A game's one-die opening roll with its ties (game 1's; with `game_starter` `opening_roll`
    every game's); None when the previous winner started it."""
    if opening is None:
        return None
    return {
        "white": opening.white,
        "black": opening.black,
        "ties": [list(tie) for tie in opening.ties],
    }


def clock_state(state: MatchState, now: datetime) -> dict[str, Any]:
    """Times in ms measured now by the server; the page counts down and never decides
    (the arithmetic is the engine's, nardy/clock.py)."""
    game = state.game
    reserve: dict[str, int | None] = {"w": None, "b": None}
    clock_side = None
    if game is not None:
        for side in ("w", "b"):
            reserve[side] = state.reserve_ms[game.seat_of_side(side)]  # type: ignore[arg-type]
        # While a double awaits an answer the answerer's clock runs (nardy/cube.py).
        clock_side = game.side_of_seat(game.clock_seat)
    running = state.open_turn() is not None
    turn_ms_left = deadline_ms_left = None
    if state.clock.timed and game is not None and running:
        reading = read_clock(
            state.clock, reserve[clock_side] or 0, game.turn_started_at,  # type: ignore[index]
            game.clock_started_at or game.turn_started_at, now,
        )  # fmt: skip
        turn_ms_left, deadline_ms_left = reading.turn_ms_left, reading.deadline_ms_left
        reserve[clock_side] = reading.mover_reserve_ms  # type: ignore[index]
    return {
        "turn_ms_left": turn_ms_left, "deadline_ms_left": deadline_ms_left, "reserve_ms": reserve,
        "running": running, "side": clock_side,
    }  # fmt: skip


def cube_state(state: MatchState) -> dict[str, Any] | None:
    """The doubling cube (None in matches without it): its value, the seat that may raise it
    (None: either), a pending offer's seat, whether the mover may double now, and whether this
    is the Crawford game."""
    game = state.game
    if not state.rules.doubling_cube or game is None:
        return None
    offered = game.cube_offer is not None
    return {
        "value": game.cube_value,
        "owner": game.cube_owner,
        "offered_by": game.cube_offer,
        "offered_value": raised_value(game.cube_value, state.rules) if offered else None,
        "may_double": state.may_double(game.mover_seat),
        "crawford": game.number == state.crawford_game,
    }


def game_state(state: MatchState, now: datetime) -> dict[str, Any] | None:
    """The `state.game` object: the game being played (or the last one), as the engine has it."""
    game = state.game
    if game is None:
        return None
    board = game.board
    turn = state.turn_state()
    legal: list[WireStep] = []
    combined: list[list[WireStep]] = []
    dice_left: list[int] = []
    awaiting = awaiting_confirm(state)
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
        "steps": [step_to_wire(step) for step in game.steps],
        "legal_steps": legal,
        "combined_moves": combined,
        "can_undo": bool(
            state.rules.undo_allowed
            and turn is not None
            and game.steps
            and (awaiting or not is_turn_complete(turn))
        ),
        # The whole turn is played and waits for `confirm` or an undo ("confirm my turn").
        "awaiting_confirm": awaiting,
        "opening": opening_state(game.opening),
        "borne_off": {"w": borne_off(board, "w"), "b": borne_off(board, "b")},
        "pips": {"w": pip_count(board, "w"), "b": pip_count(board, "b")},
        "result": (
            {"winner": game.winner_side, "result": game.result, "points": game.points}
            if game.result
            else None
        ),
        "clock": clock_state(state, now),
        "cube": cube_state(state),
    }


def match_section(
    match, state: MatchState, *, usernames: dict[int, str], ratings: dict[int, ShownRating],
    bots: frozenset[int] | set[int] = frozenset(),
) -> dict[str, Any]:  # fmt: skip
    """The `state.match` object: the match, its players and their scores, from the engine's
    state; the row gives what the state does not hold (the match's id and settings, the seeds'
    commitment)."""
    game = state.game
    players: list[PlayerState] = []
    for seat in (0, 1):
        user_id = state.players[seat]
        if user_id is None:
            continue
        rating = ratings.get(user_id, NEW_PLAYER)
        players.append(
            {
                "seat": seat,
                "username": usernames.get(user_id, "?"),
                "rating": rating.value,
                "provisional": rating.provisional,
                "score": state.score.points[seat],
                "side": game.side_of_seat(seat) if game is not None else None,
                "timeouts": state.timeouts[seat],
                "bot": user_id in bots,
            }
        )
    rematch = state.rematch
    return {
        **match_settings(match),
        "status": state.status,
        "players": players,
        "winner": state.winner_seat,
        "end_reason": state.end_reason or None,
        # Either player may abort until each has made a first move (docs/rules.md, Platform rules).
        "abortable": state.abortable,
        "aborted_by": state.aborted_by,
        "fairness": fairness_state(match),
        "rematch": {
            # The offered rematch's commitment (its seed is revealed when that match ends).
            "server_seed_hash": commitment(rematch.server_seed) if rematch.server_seed else None,
            "offered_by": rematch.offered_by,
            "declined": rematch.declined,
            "match_id": rematch.match_id,
        },
    }


def match_state(
    match,
    state: MatchState,
    moves: list[MoveState],
    *,
    usernames: dict[int, str],
    ratings: dict[int, ShownRating],
    now: datetime,
    bots: frozenset[int] | set[int] = frozenset(),
) -> dict[str, Any]:
    """The whole `state` object of a snapshot (docs/protocol.md)."""
    return {
        "match": match_section(match, state, usernames=usernames, ratings=ratings, bots=bots),
        "game": game_state(state, now),
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
