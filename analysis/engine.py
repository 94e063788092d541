"""A finished match's turns read from games' move log and handed to the pure analysis
(games/rules/analysis.py); the report is plain JSON (docs/protocol.md, "Post-match analysis and
the match export").

Every logged turn of both players is analysed in order, each game's boards rebuilt from its start
board and the turns' boards after. White's winning chances before each roll (the calibrated
estimate, games/rules/equity.py) make the page's graph. The match shares one budget of
evaluated positions (MATCH_BUDGET), split over the turns still to do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Game, Match, Turn
from games.rules.analysis import (
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
from games.rules.chooser import find_sequence
from games.rules.equity import estimate
from games.rules.ruleset import RuleSet

REPORT_VERSION = 1
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
            "depth": 0, "best_steps": None,
        }  # fmt: skip
        if result is not None:  # None: not a legal end of its roll (a log older than a rule fix)
            spent += result.positions
            row.update(
                played=round(result.played, 4), best=round(result.best, 4),
                loss=round(result.loss, 4), mark=result.mark, forced=result.forced,
                depth=result.depth, best_steps=_steps(entry, result, rules),
            )  # fmt: skip
            if not result.forced:
                losses[seat].append(result.loss)
        rows.append(row)
        progress(len(rows), len(logged))
    return {
        "version": REPORT_VERSION,
        "depth": 2,
        "candidates": CANDIDATES,
        "cube": "checker_play_only" if match.doubling_cube else None,
        "thresholds": {mark: smallest for mark, smallest in THRESHOLDS},
        "pr_scale": PR_SCALE,
        "positions": spent,
        "turns": rows,
        "totals": [_totals(rows, losses[seat], seat) for seat in (0, 1)],
    }


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
        **counts,
        "equity_lost": round(sum(losses), 4),
        "pr": None if rating is None else round(rating, 2),
    }
