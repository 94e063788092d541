"""Deadline enforcement, timeouts and stale matches, as services on PostgreSQL."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Match, Turn
from nardy import Step
from ratings.models import RatingChange
from tests.games.timing import expire_in
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def enforce(game: Game, **arguments):
    return services.game_deadline_enforce(
        match_id=game.match_id, game_id=game.pk, turn_number=game.turn_number, **arguments
    )


def test_never_before_the_deadline(active_match):
    game = expire_in(active_match, 30, schedule=False)
    version = Match.objects.get(pk=active_match.pk).version
    wait = enforce(game)
    assert 29 < wait <= 30
    assert Match.objects.get(pk=active_match.pk).version == version
    assert not Turn.objects.exists()


def test_a_timed_out_turn_is_rolled_and_played_by_the_server(active_match, players, fixed_dice):
    game = expire_in(active_match, -0.1, schedule=False)
    fixed_dice(6, 5)
    assert enforce(game) is None
    turn = Turn.objects.get(game=game)
    assert turn.by_server and list(turn.dice) == [6, 5] and len(turn.steps) == 2
    match = Match.objects.get(pk=active_match.pk)
    assert (match.timeouts_creator, match.timeouts_opponent) == (1, 0)
    game.refresh_from_db()
    assert (game.turn, game.phase, game.turn_number) == ("b", "roll", 2)
    assert game.turn_deadline > timezone.now()  # Black's clock runs now
    # The same turn again (a redelivered task, the sweep): nothing happens.
    assert services.game_deadline_enforce(match_id=match.pk, game_id=game.pk, turn_number=1) is None
    assert Turn.objects.count() == 1 and Match.objects.get(pk=match.pk).timeouts_creator == 1


def test_the_server_completes_a_turn_already_begun(active_match, players, fixed_dice):
    white, _ = players
    fixed_dice(5, 3)
    version = services.game_roll(
        user=white, match_id=active_match.pk, version=active_match.version
    ).version
    services.game_step_play(
        user=white, match_id=active_match.pk, version=version, step=Step(24, 19, 5)
    )
    game = expire_in(active_match, -0.1, schedule=False)
    enforce(game)
    turn = Turn.objects.get(game=game)
    assert turn.by_server and turn.steps[0] == [24, 19, 5] and len(turn.steps) == 2


def test_the_third_timeout_loses_the_match(active_match, players, fixed_dice):
    white, black = players
    for expected in (1, 2):
        match = Match.objects.get(pk=active_match.pk)
        game = expire_in(match, -0.1, schedule=False)
        fixed_dice(2, 1)
        enforce(game)
        # Black plays a normal turn in between.
        match = Match.objects.get(pk=active_match.pk)
        assert match.timeouts_creator == expected
        game.refresh_from_db()
        fixed_dice(4, 3)
        version = services.game_roll(user=black, match_id=match.pk, version=match.version).version
        state_steps = [Step(24, 20, 4), Step(20, 17, 3)]
        for step in state_steps:
            version = services.game_step_play(
                user=black, match_id=match.pk, version=version, step=step
            ).version
    match = Match.objects.get(pk=active_match.pk)
    game = expire_in(match, -0.1, schedule=False)
    enforce(game)
    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner) == ("finished", "timeouts", black)
    assert match.timeouts_creator == 3
    assert RatingChange.objects.filter(match=match).count() == 2  # rated: ratings move


def race_last_step_against_timeout(white, match, game, version: int) -> dict[str, object]:
    """White's last step and the deadline's enforcement, released at the same moment."""
    start = threading.Barrier(2)
    outcomes: dict[str, object] = {}

    def last_step() -> None:
        start.wait()
        try:
            services.game_step_play(
                user=white, match_id=match.pk, version=version, step=Step(18, 13, 5)
            )
            outcomes["step"] = "applied"
        except services.CommandError as error:
            outcomes["step"] = error.code

    def timeout() -> None:
        start.wait()
        while timezone.now() < game.turn_deadline:
            pass
        outcomes["timeout"] = enforce(game)

    run_together(last_step, timeout)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_last_moment_step_and_the_timeout_leave_one_consistent_turn(players, fixed_dice):
    """Both run at once many times; exactly one wins each time, the log shows one turn."""
    white, black = players
    for attempt in range(6):
        match = services.match_create(creator=white, rated=False)
        fixed_dice(6, 1)
        services.match_accept(user=black, match_id=match.pk)
        match.refresh_from_db()
        fixed_dice(6, 5)
        version = services.game_roll(user=white, match_id=match.pk, version=match.version).version
        version = services.game_step_play(
            user=white, match_id=match.pk, version=version, step=Step(24, 18, 6)
        ).version
        game = expire_in(match, 0.05, schedule=False)
        outcomes = race_last_step_against_timeout(white, match, game, version)
        turns = list(Turn.objects.filter(game=game))
        assert len(turns) == 1, (attempt, outcomes)
        turn = turns[0]
        assert turn.steps[0] == [24, 18, 6] and len(turn.steps) == 2
        match.refresh_from_db()
        if outcomes["step"] == "applied":
            assert not turn.by_server and match.timeouts_creator == 0
        else:
            assert outcomes["step"] in ("stale_version", "not_your_turn")
            assert turn.by_server and match.timeouts_creator == 1
        game.refresh_from_db()
        assert (game.turn, game.turn_number) == ("b", 2)
        services.match_resign(user=black, match_id=match.pk)


def test_stale_matches_are_aborted_unrated_and_old_challenges_cancelled(active_match, players):
    white, black = players
    old = timezone.now() - timedelta(hours=25)
    Match.objects.filter(pk=active_match.pk).update(last_activity_at=old)
    challenge = services.match_create(creator=white)
    Match.objects.filter(pk=challenge.pk).update(last_activity_at=old)
    fresh = services.match_create(creator=black)
    assert services.matches_close_stale() == 2
    active_match.refresh_from_db()
    assert (active_match.status, active_match.end_reason, active_match.winner) == (
        "aborted",
        "aborted",
        None,
    )
    assert not RatingChange.objects.exists()
    assert Match.objects.get(pk=challenge.pk).status == "cancelled"
    assert Match.objects.get(pk=fresh.pk).status == "open"
    assert services.game_deadlines_due() == []
