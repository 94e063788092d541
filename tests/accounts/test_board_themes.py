"""Every label on the board reads at 4.5:1 or better (WCAG 2.1 1.4.3) in every board theme with
every choice of checkers, computed from static/css/board.css's custom properties as a browser
cascades them (both attributes sit on <html>: the rules apply in the sheet's order); and every
checker stands out from the field and both points, by its colour or its edge."""

from __future__ import annotations

import itertools

import pytest

from accounts.models import BoardTheme, CheckerColours
from tests.css_colours import blocks, contrast, rules

SHEET = "css/board.css"
# (the label's colour, what it is drawn on): the point numbers on the frame, the trays' counts on
# the trays, a tall stack's count on its checker, the dice's pips on a die and a last turn's die.
LABELS = [
    ("--point-number", "--board-frame"),
    ("--tray-count", "--tray-bg"),
    ("--checker-w-label", "--checker-w"),
    ("--checker-b-label", "--checker-b"),
    ("--die-pip", "--die-face"),
    ("--die-pip", "--die-face-last"),
]
# The rules that draw those labels, and the property each draws with.
DRAWN_WITH = {
    ".pt-num": "fill: var(--point-number)",
    ".tray-count": "fill: var(--tray-count)",
    ".board-frame": "fill: var(--board-frame)",
    ".tray-bg": "fill: var(--tray-bg)",
    ".stack-count.w": "fill: var(--checker-w-label)",
    ".stack-count.b": "fill: var(--checker-b-label)",
    ".checker.w": "fill: var(--checker-w)",
    ".checker.b": "fill: var(--checker-b)",
    ".die-pip": "fill: var(--die-pip)",
    ".die-face": "fill: var(--die-face)",
    ".dice.last-turn .die-face": "fill: var(--die-face-last)",
}


def properties(theme: str, checkers: str) -> dict[str, str]:
    applying = {":root", f'[data-board-theme="{theme}"]', f'[data-checkers="{checkers}"]'}
    found: dict[str, str] = {}
    for selector, values in blocks(SHEET):
        if selector in applying:
            found.update(values)
    return found


COMBINATIONS = list(itertools.product(BoardTheme.values, CheckerColours.values))


@pytest.mark.parametrize(("theme", "checkers"), COMBINATIONS)
def test_every_label_reads_at_4_5_to_1(theme, checkers):
    values = properties(theme, checkers)
    low = [
        f"{label} on {ground}: {contrast(values[label], values[ground]):.2f}"
        for label, ground in LABELS
        if contrast(values[label], values[ground]) < 4.5
    ]
    assert not low, low


@pytest.mark.parametrize(("theme", "checkers"), COMBINATIONS)
def test_checkers_stand_out_from_every_ground(theme, checkers):
    """By the checker's colour or its edge: 3:1 on the high-contrast board (WCAG 1.4.11), 2:1 on
    the others (our floor: a crimson checker on a red point had 1.3)."""
    values = properties(theme, checkers)
    floor = 3 if theme == BoardTheme.CONTRAST else 2
    for side, ground in itertools.product("wb", ["--board-field", "--point-dark", "--point-light"]):
        best = max(
            contrast(values[f"--checker-{side}"], values[ground]),
            contrast(values[f"--checker-{side}-edge"], values[ground]),
        )
        assert best >= floor, (side, ground, round(best, 2))


def test_the_labels_are_drawn_with_the_checked_properties():
    drawn = rules(SHEET)
    for selector, declaration in DRAWN_WITH.items():
        assert declaration in drawn[selector], selector


def test_every_theme_and_checker_choice_has_its_rule_and_no_other():
    selectors = {selector for selector, values in blocks(SHEET) if values}
    themed = {s for s in selectors if s.startswith("[data-")}
    # The defaults (wood, ivory and ebony) are the :root rule.
    offered = {f'[data-board-theme="{value}"]' for value in BoardTheme.values[1:]} | {
        f'[data-checkers="{value}"]' for value in CheckerColours.values[1:]
    }
    assert themed == offered
    assert ":root" in selectors
