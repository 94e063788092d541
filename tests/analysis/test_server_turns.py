"""A turn the server finished after a timeout, in the analysis (analysis/engine.py): shown with
its equities, but neither marked nor counted into its player's performance rating; the player's
own turns are counted as always, in the report and in the profile's figures by phase."""

from __future__ import annotations

import pytest
from django.db import transaction

from analysis.models import AnalysisStatus, MatchAnalysis
from analysis.services import analysis_run
from games import services
from games.models import Match, Turn
from games.services.runners import locked
from learning.models import StatKind, StatLine
from nardy import choose_rest_of_turn
from tests.factories import make_user
from tests.games.timing import expire_in

pytestmark = pytest.mark.django_db


def play_own_turn(match_id: int, user) -> None:
    """`user` rolls and plays every step of the turn (the engine's chooser picks them)."""
    services.game_roll(user=user, match_id=match_id, version=Match.objects.get(pk=match_id).version)
    with transaction.atomic():
        begun = locked(match_id).state.open_turn()
    while True:
        with transaction.atomic():
            context = locked(match_id)
            turn, version = context.state.turn_state(), context.match.version
        if turn is None or context.state.open_turn() != begun:
            return
        step = choose_rest_of_turn(turn)[0]
        services.game_step_play(user=user, match_id=match_id, version=version, step=step)


def test_a_turn_the_server_finished_is_shown_but_neither_marked_nor_counted(
    fixed_dice, django_capture_on_commit_callbacks
):
    white, black = make_user("late_white"), make_user("own_black")
    match = services.match_create(creator=white, turn_seconds=60)
    fixed_dice(6, 2)  # the opening roll: the creator (seat 0) plays White
    services.match_accept(user=black, match_id=match.pk)
    # Each side's first turn takes one checker from the head (docs/rules.md), forced at 6-5 and
    # 4-2; White's second turn runs out of time and the server plays it; then each plays its own.
    fixed_dice(6, 5)
    play_own_turn(match.pk, white)
    fixed_dice(4, 2)
    play_own_turn(match.pk, black)
    game = expire_in(Match.objects.get(pk=match.pk), -0.1, schedule=False)
    fixed_dice(5, 3)
    services.game_deadline_enforce(match_id=match.pk, game_id=game.pk, turn_number=3)
    fixed_dice(6, 1)
    play_own_turn(match.pk, black)
    fixed_dice(3, 1)
    play_own_turn(match.pk, white)
    assert list(Turn.objects.filter(game=game).values_list("by_server", flat=True)) == [
        False, False, True, False, False,
    ]  # fmt: skip
    services.match_resign(user=white, match_id=match.pk)
    MatchAnalysis.objects.update_or_create(match=match, defaults={"status": AnalysisStatus.QUEUED})
    with django_capture_on_commit_callbacks(execute=True):  # analysis_ready: learning's counts
        report = analysis_run(match_id=match.pk).result
    forced_white, forced_black, server_turn, own_turn, own_white = report["turns"]
    assert forced_white["forced"] and forced_black["forced"]
    assert server_turn["by_server"] and server_turn["loss"] is not None
    assert server_turn["mark"] is None and not server_turn["forced"]
    assert not own_turn["by_server"] and not own_turn["forced"]
    assert not own_white["by_server"] and not own_white["forced"]
    white_totals, black_totals = report["totals"]
    assert white_totals["decisions"] == black_totals["decisions"] == 1
    assert white_totals["equity_lost"] == pytest.approx(own_white["loss"], abs=1e-3)
    # The profile's performance by phase counts the same turns (learning's analysis_ready).
    phases = StatLine.objects.filter(kind=StatKind.PHASE)
    for player in (white, black):
        assert sum(phases.filter(user=player).values_list("decisions", flat=True)) == 1
