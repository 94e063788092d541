"""What a stored analysis adds (analysis/hooks.py `analysis_ready`, after its commit, in the
analysis worker): the exercises of its mistakes and blunders, and each player's performance
rows (docs/features.md, "Exercises" and "A player's statistics").

The candidates' 2-ply values are worked out here, once, outside any transaction (the turn's
analysis over again, learning/positions.py); the rows are then written in one transaction. A
second call for the same match changes nothing: the exercises are unique per turn and the
performance rows per player and match, and a phase's counters grow only with a new row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F

from analysis.models import AnalysisStatus, MatchAnalysis
from games.models import Game, Match
from learning.models import Exercise, MatchPerformance, StatKind, StatLine
from learning.positions import PHASES, phase_of, work_out
from nardy.analysis import BLUNDER, MISTAKE, LoggedTurn, game_turns

EXERCISE_MARKS = (MISTAKE, BLUNDER)


@dataclass(frozen=True)
class Position:
    logged: LoggedTurn
    phase: str


def _positions(match: Match) -> dict[tuple[int, int], Position]:
    """Each logged turn's position by (game number, turn number), with its phase."""
    positions: dict[tuple[int, int], Position] = {}
    for game in Game.objects.filter(match=match).order_by("number").prefetch_related("turns"):
        turns = sorted(game.turns.all(), key=lambda turn: turn.number)
        moves = [
            (turn.side, (turn.dice[0], turn.dice[1]), tuple(turn.board_after)) for turn in turns
        ]
        counted = {"w": 0, "b": 0}
        for turn, logged in zip(turns, game_turns(tuple(game.start_board), moves), strict=True):
            phase = phase_of(logged.board, logged.side, counted[logged.side])
            counted[logged.side] += 1
            positions[(game.number, turn.number)] = Position(logged, phase)
    return positions


def _people(match: Match) -> dict[int, int]:
    """Seat -> user id of the match's people (the computer learns nothing)."""
    seats = {0: match.creator, 1: match.opponent}
    return {seat: user.pk for seat, user in seats.items() if user is not None and not user.is_bot}


def learning_from_analysis(*, match_id: int) -> int:
    """Store the exercises and performance rows of a match's stored analysis; returns how many
    exercises its turns gave (stored now or before). Nothing for a match without a finished
    analysis."""
    analysis = MatchAnalysis.objects.filter(match_id=match_id, status=AnalysisStatus.DONE).first()
    if analysis is None:
        return 0
    match = Match.objects.select_related("creator", "opponent").get(pk=match_id)
    report: dict[str, Any] = analysis.result
    people = _people(match)
    positions = _positions(match)
    exercises = []
    for row in report["turns"]:
        position = positions.get((row["game"], row["number"]))
        if (position is None or row["mark"] not in EXERCISE_MARKS or row["forced"]
                or row["depth"] != 2 or row["seat"] not in people):  # fmt: skip
            continue
        logged = position.logged
        worked = work_out(logged.board, logged.side, logged.dice, logged.first_turn,
                          logged.played, match.rules)  # fmt: skip
        if worked is None:
            continue
        exercises.append(Exercise(
            match=match, game_number=row["game"], turn_number=row["number"],
            player_id=people[row["seat"]], rule_set_name=match.rule_set_name,
            phase=position.phase, board=list(logged.board), side=logged.side,
            dice=list(logged.dice), first_turn=logged.first_turn,
            played_board=list(logged.played), played_equity=row["played"], loss=row["loss"],
            mark=row["mark"],
            candidates=[[list(end), value] for end, value in worked.candidates],
            estimates=worked.estimates, best_steps=[list(step) for step in worked.best_steps],
            public=(row["mark"] == BLUNDER and worked.one_answer() and not match.private),
        ))  # fmt: skip
    with transaction.atomic():
        Exercise.objects.bulk_create(exercises, ignore_conflicts=True)
        _count_performance(match, report, people, positions)
    return len(exercises)


def _count_performance(
    match: Match, report: dict[str, Any], people: dict[int, int],
    positions: dict[tuple[int, int], Position],
) -> None:  # fmt: skip
    """Each person's match performance row and, the first time only, their phase counters."""
    for seat, user_id in sorted(people.items(), key=lambda pair: pair[1]):
        pr = report["totals"][seat]["pr"]
        if pr is None:
            continue
        _, created = MatchPerformance.objects.get_or_create(
            user_id=user_id, match=match,
            defaults={"finished_at": match.finished_at or match.created_at, "pr": pr},
        )  # fmt: skip
        if not created:
            continue
        lost = {phase: [0, 0.0] for phase in PHASES}
        for row in report["turns"]:
            position = positions.get((row["game"], row["number"]))
            if (row["seat"] != seat or row["loss"] is None or row["forced"]
                    or row.get("by_server") or position is None):  # fmt: skip
                continue  # the rating's own turns (analysis/engine.py)
            lost[position.phase][0] += 1
            lost[position.phase][1] += row["loss"]
        for phase, (decisions, equity) in lost.items():
            if decisions:
                StatLine.objects.bulk_create(
                    [StatLine(user_id=user_id, kind=StatKind.PHASE, key=phase)],
                    ignore_conflicts=True,
                )
                StatLine.objects.filter(user_id=user_id, kind=StatKind.PHASE, key=phase).update(
                    decisions=F("decisions") + decisions, equity_lost=F("equity_lost") + equity
                )
