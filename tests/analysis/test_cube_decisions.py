"""A cube match's analysis through the services (analysis/engine.py, nardy/cube_analysis.py):
its doubles, takes and the dropped redouble are read back from the move log, each is scored at
the match score from the match equity table, marked, stored with the row and counted into the
performance rating; a match without the cube has none; a log whose cube history the rules would
not allow yields no decision for that moment and changes nothing else."""

from __future__ import annotations

import pytest

from analysis.models import AnalysisStatus, MatchAnalysis
from analysis.services import analysis_run
from games import services
from games.models import Match, MatchStatus, Turn
from nardy import Step
from tests.analysis.conftest import finished_empty_match
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def play_cube_match(fixed_dice) -> Match:
    """A 3-point cube match: White (seat 0) doubles at once, Black takes; White plays 3-1; Black
    redoubles to 4 at once and White drops (a near-even game at 4 decides the match: the drop
    gives it away). Then White resigns the Crawford game."""
    white, black = make_user("cube_white"), make_user("cube_black")
    match = services.match_create(creator=white, length=3, doubling_cube=True)
    fixed_dice(6, 2)
    services.match_accept(user=black, match_id=match.pk)

    def version() -> int:
        return Match.objects.get(pk=match.pk).version

    services.game_cube_double(user=white, match_id=match.pk, version=version())
    services.game_cube_take(user=black, match_id=match.pk, version=version())
    fixed_dice(3, 1)
    services.game_roll(user=white, match_id=match.pk, version=version())
    for step in ((24, 21, 3), (21, 20, 1)):
        services.game_step_play(user=white, match_id=match.pk, version=version(), step=Step(*step))
    services.game_cube_double(user=black, match_id=match.pk, version=version())
    fixed_dice(5, 1)
    services.game_cube_drop(user=white, match_id=match.pk, version=version())
    services.match_resign(user=white, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.crawford_game == 2
    return match


@pytest.fixture
def cube_match_played(fixed_dice):
    return play_cube_match(fixed_dice)


def analysed(match: Match) -> MatchAnalysis:
    MatchAnalysis.objects.update_or_create(match=match, defaults={"status": AnalysisStatus.QUEUED})
    return analysis_run(match_id=match.pk)


def test_every_cube_decision_is_analysed_stored_and_counted(cube_match_played):
    match = cube_match_played
    done = analysed(match)
    assert done.status == AnalysisStatus.DONE
    report = done.result
    assert report["version"] == 2 and report["cube"] == "analysed"
    decisions = report["cube_decisions"]
    assert [(d["game"], d["turn"], d["game_end"], d["seat"], d["kind"], d["cube"], d["played"])
            for d in decisions] == [
        (1, 1, False, 0, "double", 1, "double"),
        (1, 1, False, 1, "take", 1, "take"),
        (1, 1, True, 1, "double", 2, "double"),
        (1, 1, True, 0, "take", 2, "drop"),
    ]  # fmt: skip
    assert done.cube_decisions == 4
    drop = decisions[3]
    # Dropping gives Black the Crawford game at 1-away/3-away; taking plays one game for the
    # match at about even chances.
    assert drop["best"] == "take" and drop["mark"] == "blunder" and drop["counted"]
    equities = drop["equities"]
    assert drop["loss"] == pytest.approx(equities["take"] - equities["drop"], abs=2e-4)
    for decision in decisions:
        assert set(decision["equities"]) in ({"double", "no_double"}, {"take", "drop"})
        assert decision["loss"] >= 0
    # The performance rating counts the turns and the cube decisions alike.
    white = report["totals"][0]
    unforced = [
        t for t in report["turns"] if t["seat"] == 0 and t["loss"] is not None and not t["forced"]
    ]
    cube_losses = [d["loss"] for d in decisions if d["seat"] == 0 and d["counted"]]
    assert white["cube_decisions"] == len(cube_losses) == 2
    assert white["decisions"] == len(unforced) + len(cube_losses)
    lost = sum(t["loss"] for t in unforced) + sum(cube_losses)
    assert white["equity_lost"] == pytest.approx(lost, abs=1e-3)
    assert white["pr"] == pytest.approx(500 * lost / white["decisions"], abs=0.01)
    assert white["blunders"] >= 1 and done.pr_creator == white["pr"]


def test_a_match_without_the_cube_has_no_cube_decision():
    match = finished_empty_match(make_user("plain_one"), make_user("plain_two"))
    done = analysed(match)
    assert done.result["cube"] is None and done.result["cube_decisions"] == []
    assert done.cube_decisions == 0


def test_a_cube_history_the_rules_would_not_allow_yields_no_decision(cube_match_played):
    match = cube_match_played
    # A log edited by hand: White's turn also claims a double after Black owns the cube.
    turn = Turn.objects.get(game__match=match, game__number=1, number=1)
    Turn.objects.filter(pk=turn.pk).update(doubled_to=64)
    done = analysed(match)
    assert done.status == AnalysisStatus.DONE
    kinds = [(d["seat"], d["kind"], d["cube"]) for d in done.result["cube_decisions"]]
    # Black, holding a 64 cube it cannot raise, has no double to decide; White's own double
    # and Black's answer are still there.
    assert kinds == [(0, "double", 1), (1, "take", 1)]
