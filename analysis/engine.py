"""A finished match's turns read from games' move log and handed to the pure analysis
(nardy/analysis.py); the report is plain JSON (docs/protocol.md, "Post-match analysis and
the match export").

Every logged turn of both players is analysed in order, each game's boards rebuilt from its start
board and the turns' boards after. White's winning chances before each roll (the calibrated
estimate, nardy/equity.py) make the page's graph. The match shares one budget of
evaluated positions (MATCH_BUDGET), split over the turns still to do.

In a cube match, every cube decision is analysed too (nardy/cube_analysis.py): the cube's
history is read back from the log (a turn's ``doubled_to``, a game ended by a dropped double),
the score before each game from the games before it, and the Crawford game from the match row.
Its losses count into each seat's marks, equity lost and performance rating with the turns'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Game, GameResult, Match, Turn
from nardy.analysis import (
    BLUNDER,
    CANDIDATES,
    DOUBTFUL,
    MATCH_BUDGET,
    MISTAKE,
    PR_SCALE,
    THRESHOLDS,
    LoggedTurn,
    TurnAnalysis,
    analyse_turns,
    game_turns,
    performance_rating,
)
from nardy.board import pip_count
from nardy.chooser import find_sequence
from nardy.cube_analysis import CubeDecision, CubeMoment, game_cube_decisions
from nardy.equity import estimate
from nardy.ruleset import RuleSet

REPORT_VERSION = 2
MARK_KEYS = {DOUBTFUL: "doubtful", MISTAKE: "mistakes", BLUNDER: "blunders"}


def count_turns(match: Match) -> int:
    return Turn.objects.filter(game__match=match).count()


def _games(match: Match) -> list[tuple[Game, list[Turn]]]:
    games = Game.objects.filter(match=match).order_by("number").prefetch_related("turns")
    return [(game, sorted(game.turns.all(), key=lambda turn: turn.number)) for game in games]


def analyse_match(
    match: Match, *, progress: Callable[[int, int], None] = lambda done, total: None,
    budget: int = MATCH_BUDGET,
) -> dict[str, Any]:  # fmt: skip
    """The whole report: every turn, each seat's totals, the positions evaluated."""
    rules = match.rules
    logged: list[tuple[Game, Turn, LoggedTurn]] = []
    for game, turns in _games(match):
        moves = [
            (turn.side, (turn.dice[0], turn.dice[1]), tuple(turn.board_after)) for turn in turns
        ]
        logged += zip(
            [game] * len(turns), turns, game_turns(tuple(game.start_board), moves), strict=True
        )
    rows: list[dict[str, Any]] = []
    losses: dict[int, list[float]] = {0: [], 1: []}
    spent = 0
    results = analyse_turns([entry for _, _, entry in logged], rules, budget=budget)
    for (game, turn, entry), result in zip(logged, results, strict=True):
        seat = game.seat_of_side(entry.side)
        chance = estimate(entry.board, entry.side).win
        row: dict[str, Any] = {
            "game": game.number, "number": turn.number, "side": entry.side, "seat": seat,
            "white_wins": round(chance if entry.side == "w" else 1.0 - chance, 4),
            "played": None, "best": None, "loss": None, "mark": None, "forced": False,
            "depth": 0, "best_steps": None, "by_server": turn.by_server,
        }  # fmt: skip
        if result is not None:  # None: not a legal end of its roll (a log older than a rule fix)
            spent += result.positions
            # A turn the server finished after the player's time ran out is shown with its
            # equities but neither marked nor counted: its steps were, at least in part, the
            # engine's chooser's, not the player's (docs/features.md, "Post-match analysis").
            row.update(
                played=round(result.played, 4), best=round(result.best, 4),
                loss=round(result.loss, 4), mark=None if turn.by_server else result.mark,
                forced=result.forced, depth=result.depth,
                best_steps=_steps(entry, result, rules),
            )  # fmt: skip
            if not result.forced and not turn.by_server:
                losses[seat].append(result.loss)
        rows.append(row)
        progress(len(rows), len(logged))
    cube_rows = _cube_rows(match, logged) if match.doubling_cube else []
    for cube_row in cube_rows:
        if cube_row["counted"]:
            losses[cube_row["seat"]].append(cube_row["loss"])
    return {
        "version": REPORT_VERSION,
        "depth": 2,
        "candidates": CANDIDATES,
        "cube": "analysed" if match.doubling_cube else None,
        "cube_decisions": cube_rows,
        "thresholds": {mark: smallest for mark, smallest in THRESHOLDS},
        "pr_scale": PR_SCALE,
        "positions": spent,
        "turns": rows,
        "totals": [_totals(rows + cube_rows, losses[seat], seat) for seat in (0, 1)],
    }


def _cube_rows(match: Match, logged: list[tuple[Game, Turn, LoggedTurn]]) -> list[dict[str, Any]]:
    """Each game's cube decisions, in order, as rows of the report: shown with the turn whose
    roll followed them (``turn``), or with the game's last turn for a double dropped."""
    rules = match.rules
    score = [0, 0]
    rows: list[dict[str, Any]] = []
    for game, _turns in _games(match):
        entries = [(turn, entry) for owner, turn, entry in logged if owner.pk == game.pk]
        moments = [
            _moment(game, entry.board, entry.side, turn.doubled_to) for turn, entry in entries
        ]
        dropped = None
        if game.result == GameResult.DROP and game.winner_side:
            board = entries[-1][1].played if entries else tuple(game.start_board)
            dropped = _moment(game, board, game.winner_side, 0)
        crawford = match.crawford_game
        found = game_cube_decisions(
            moments, [estimate(moment.board, moment.side).win for moment in moments], rules,
            score=(score[0], score[1]), crawford_game=bool(crawford) and game.number == crawford,
            past_crawford=bool(crawford) and game.number > crawford, dropped=dropped,
            dropped_chance=estimate(dropped.board, dropped.side).win if dropped else 0.5,
        )  # fmt: skip
        for index, decision in found:
            shown = entries[min(index, len(entries) - 1)][0].number if entries else None
            rows.append(_cube_row(game, shown, index == len(moments), decision))
        if game.winner_side:
            score[game.seat_of_side(game.winner_side)] += game.points
    return rows


def _moment(game: Game, board: tuple[int, ...], side: str, doubled_to: int) -> CubeMoment:
    return CubeMoment(board, side, game.seat_of_side(side), pip_count(board, side), doubled_to)


def _cube_row(
    game: Game, turn: int | None, game_end: bool, decision: CubeDecision
) -> dict[str, Any]:
    return {
        "game": game.number, "turn": turn, "game_end": game_end, "seat": decision.seat,
        "kind": decision.kind, "cube": decision.cube, "played": decision.played,
        "best": decision.best, "equities": decision.equities, "loss": round(decision.loss, 4),
        "mark": decision.mark, "counted": decision.counted,
    }  # fmt: skip


def _steps(entry: LoggedTurn, result: TurnAnalysis, rules: RuleSet) -> list[list[int]] | None:
    """The best turn's steps (for the page's arrows), when it is not the turn played."""
    if result.best_board == entry.played:
        return None
    sequence = find_sequence(entry.board, entry.side, entry.dice, entry.first_turn, rules,
                             result.best_board, result.dice_played)  # fmt: skip
    return [[step.source, step.destination, step.die] for step in sequence]


def _totals(rows: list[dict[str, Any]], losses: list[float], seat: int) -> dict[str, Any]:
    counts = {key: 0 for key in MARK_KEYS.values()}
    for row in rows:
        if row["seat"] == seat and row["mark"]:
            counts[MARK_KEYS[row["mark"]]] += 1
    rating = performance_rating(losses)
    return {
        "seat": seat,
        "decisions": len(losses),
        "cube_decisions": sum(1 for row in rows if row["seat"] == seat and row.get("counted")),
        **counts,
        "equity_lost": round(sum(losses), 4),
        "pr": None if rating is None else round(rating, 2),
    }
