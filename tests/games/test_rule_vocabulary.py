"""One vocabulary of rule options (nardy/ruleset.py): the model's choices and constraints,
the form, `match_create`, the rematch copy, the protocol and the page's strings all derive from
it, and this test proves they match."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import IntegrityError, transaction

from games import services
from games.forms import MatchCreateForm
from games.models import (
    RULE_COLUMNS,
    BlockRelease,
    CubeRaise,
    GameStarter,
    HeadException,
    Match,
    Opening,
    RuleSetName,
    SingleDie,
    SixBlock,
)
from games.protocol import rules_state
from nardy import RuleSet, rule_set
from nardy.ruleset import (
    BLOCK_RELEASES,
    CUBE_RAISES,
    GAME_STARTERS,
    HEAD_EXCEPTIONS,
    MATCH_LENGTHS,
    OPENING_MODES,
    OPTION_VALUES,
    PRESETS,
    RULE_SET_NAMES,
    SINGLE_DIE_MODES,
    SIX_BLOCK_MODES,
)


def test_model_and_form_choices_are_the_engine_values():
    assert RuleSetName.values == list(RULE_SET_NAMES) == list(PRESETS)
    assert SixBlock.values == list(SIX_BLOCK_MODES)
    assert HeadException.values == list(HEAD_EXCEPTIONS)
    assert Opening.values == list(OPENING_MODES)
    assert SingleDie.values == list(SINGLE_DIE_MODES)
    assert BlockRelease.values == list(BLOCK_RELEASES)
    assert GameStarter.values == list(GAME_STARTERS)
    assert CubeRaise.values == list(CUBE_RAISES)
    form = MatchCreateForm()
    for name, values in [
        ("rule_set_name", RULE_SET_NAMES),
        ("head_exception", HEAD_EXCEPTIONS),
        ("opening", OPENING_MODES),
        ("single_die", SINGLE_DIE_MODES),
        ("block_release", BLOCK_RELEASES),
        ("game_starter", GAME_STARTERS),
        ("cube_raise", CUBE_RAISES),
    ]:
        assert [value for value, _ in form.fields[name].choices] == list(values)
    assert [value for value, _ in form.fields["length"].choices][1:] == list(MATCH_LENGTHS)
    usual = str(form.fields["length"].choices[0][1])
    for name, preset in PRESETS.items():
        assert f"{RuleSetName(name).label} {preset.match_length}" in usual


def test_every_engine_option_has_a_match_column():
    options = {field.name for field in dataclasses.fields(RuleSet)}
    assert set(RULE_COLUMNS) == options
    assert set(OPTION_VALUES) == options - {"match_length"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "column",
    ["rule_set_name", "six_block", "head_exception", "opening", "single_die", "block_release",
     "game_starter", "cube_raise"],
)  # fmt: skip
def test_the_database_refuses_a_value_outside_the_vocabulary(players, column):
    creator, _ = players
    match = services.match_create(creator=creator)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=match.pk).update(**{column: "sometimes"})


@pytest.mark.django_db
@pytest.mark.parametrize("name", RULE_SET_NAMES)
def test_created_rematched_and_sent_rules_round_trip(players, fixed_dice, name):
    creator, opponent = players
    variants = {"single_die": "choice", "block_release": "home", "game_starter": "opening_roll",
                "doubling_cube": True, "cube_raise": "arithmetic", "crawford": False}  # fmt: skip
    chosen = rule_set(
        name, head_exception="generalised", opening="play_roll", match_length=3, **variants
    )
    match = services.match_create(
        creator=creator, rule_set_name=name, length=3, head_exception="generalised",
        opening="play_roll", **variants,
    )  # fmt: skip
    assert match.rules == chosen
    assert rules_state(match) == {
        "name": name,
        **{option: getattr(chosen, option) for option in OPTION_VALUES},
    }
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=match.pk)
    services.match_resign(user=creator, match_id=match.pk)
    services.match_rematch_offer(user=creator, match_id=match.pk)
    fixed_dice(6, 2)
    services.match_rematch_offer(user=opponent, match_id=match.pk)
    rematch = Match.objects.get(pk=Match.objects.get(pk=match.pk).rematch_id)
    assert (rematch.rule_set_name, rematch.rules) == (name, chosen)


@pytest.mark.django_db
def test_the_page_names_every_rule_set(client, players, fixed_dice):
    creator, opponent = players
    match = services.match_create(creator=creator)
    client.force_login(creator)
    page = client.get(match.get_absolute_url()).content.decode()
    for value, label in RuleSetName.choices:
        assert f'"rules_{value}": "{label}"' in page
