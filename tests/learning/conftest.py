from __future__ import annotations

import pytest

from analysis.services import analysis_run
from games import services
from tests.analysis.test_analysis_services import play_bot_against_random
from tests.factories import make_user
from tests.learning.positions import exercise_of_position


@pytest.fixture
def analysed_match(django_capture_on_commit_callbacks):
    """A rated match of a strong chooser against a random mover, played to its end and analysed
    with every after-commit callback run, as in the analysis worker: learning heard of both."""
    strong, weak = make_user("strong_one"), make_user("random_one")
    match = services.match_create(creator=strong, turn_seconds=120, rated=True)
    services.match_accept(user=weak, match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play_bot_against_random(match.pk, strong, weak)
    with django_capture_on_commit_callbacks(execute=True):
        analysis_run(match_id=match.pk)
    match.refresh_from_db()
    return match, strong, weak


@pytest.fixture
def make_exercise():
    """A factory of exercises of a fixed position (tests/learning/positions.py)."""
    return exercise_of_position
