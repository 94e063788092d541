"""Values stored in the database never change meaning (OddSlingers' enum test), and the models
match their migrations."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games.models import (
    BlockRelease,
    CubeRaise,
    DiceSource,
    EndReason,
    GameResult,
    GameStarter,
    HeadException,
    MatchStatus,
    Opening,
    Phase,
    RuleSetName,
    SingleDie,
    SixBlock,
    TimeControl,
)


def test_stored_enum_values_never_change():
    assert MatchStatus.values == ["open", "active", "finished", "cancelled", "aborted"]
    assert EndReason.values == [
        "finished", "resigned", "left", "timeouts", "aborted", "banned", "time", "abandoned",
    ]  # fmt: skip
    assert TimeControl.values == ["turn", "nardeon", "omerta", "correspondence"]
    assert GameResult.values == ["oin", "mars", "cube", "drop"]
    assert Phase.values == ["roll", "move", "over"]
    assert RuleSetName.values == ["traditional", "tournament"]
    assert SixBlock.values == ["end_of_turn", "every_step"]
    assert HeadException.values == ["classic", "generalised"]
    assert Opening.values == ["reroll", "play_roll"]
    assert SingleDie.values == ["larger", "choice"]
    assert BlockRelease.values == ["ahead", "home"]
    assert GameStarter.values == ["winner", "opening_roll"]
    assert CubeRaise.values == ["geometric", "arithmetic"]
    assert DiceSource.values == ["fair", "fixed", "legacy"]


@pytest.mark.django_db
def test_models_and_migrations_agree():
    output = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=output)
    assert "No changes detected" in output.getvalue()
