"""The engine's reasons for refusing a step reach players in their language (games/rule_messages).

Whole games of random legal turns are played on both rule sets; on the way, every wrong step a
client could send is tried. Each reason the engine gives must be one the table translates, so a
new or reworded reason in nardy fails here instead of reaching players in English."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from games.rule_messages import translated_reason
from nardy import (
    START_BOARD,
    IllegalMove,
    Step,
    legal_turns,
    play_step,
    rule_set,
    start_turn,
    winner_of,
)
from tests.i18n.catalog_text import LANGUAGES

NUMBER = re.compile(r"-?\d+")


def wrong_steps_of(state) -> list[Step]:
    steps = []
    for die in range(1, 7):
        for source in range(0, 26):
            for destination in {source - die, 0, max(source - die, 0) + 1}:
                steps.append(Step(source, destination, die))
    return steps


def engine_reasons(seed: int, rules_name: str) -> set[str]:
    chance = random.Random(seed)
    rules = rule_set(rules_name)
    board, side, turns = START_BOARD, "w", {"w": 0, "b": 0}
    reasons: set[str] = set()
    while winner_of(board) is None:
        dice = (chance.randint(1, 6), chance.randint(1, 6))
        first_turn = turns[side] == 0
        state = start_turn(board, side, dice, first_turn, rules)
        turns_available = legal_turns(board, side, dice, first_turn, rules)
        sequence = chance.choice(sorted(chance.choice(list(turns_available.values()))))
        sequence = sequence if turns_available else ()
        for index in range(len(sequence) + 1):
            if chance.random() < 0.25 or index == len(sequence):
                for step in wrong_steps_of(state):
                    try:
                        play_step(state, step)
                    except IllegalMove as refusal:
                        reasons.add(str(refusal))
            if index < len(sequence):
                state = play_step(state, sequence[index])
        board, side = state.board, "b" if side == "w" else "w"
        turns[side] += 1
    return reasons


@pytest.fixture(scope="module")
def reasons() -> set[str]:
    found: set[str] = set()
    for seed in range(3):
        found |= engine_reasons(seed, "traditional") | engine_reasons(seed + 10, "tournament")
    return found


def test_the_games_met_every_kind_of_refusal(reasons):
    kinds = {reason.split(" ")[0:3][-1] for reason in reasons}
    assert len(reasons) > 50 and len(kinds) > 5, sorted(reasons)[:20]
    assert any("bears off" in reason or "bearing off" in reason for reason in reasons)
    assert any("six-point block" in reason for reason in reasons)


@pytest.mark.parametrize(("code", "locale"), LANGUAGES)
def test_every_reason_the_engine_gives_is_translated_with_its_numbers(reasons, code, locale):
    untranslated = []
    for reason in sorted(reasons):
        with translation.override("en"):
            english = translated_reason(reason)
        with translation.override(code):
            text = translated_reason(reason)
        if text in (reason, english) or sorted(NUMBER.findall(text)) != sorted(
            NUMBER.findall(english)
        ):
            untranslated.append((reason, text))
    assert untranslated == [], untranslated[:5]


def test_an_unknown_reason_passes_through():
    with translation.override("ru"):
        assert translated_reason("something new") == "something new"
