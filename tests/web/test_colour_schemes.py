"""The site's text colours read at 4.5:1 or better (WCAG 2.1 1.4.3) on every surface they are
drawn on, in the light scheme (static/css/site.css) and the dark one (static/css/dark.css), computed
from the custom properties; and the dark sheet gives every colour property of the light one a dark
value (a property left out would stay light on a dark page)."""

from __future__ import annotations

import pytest

from tests.css_colours import blocks, contrast

# (text, surface) as the sheets pair them: body text and the quiet text on the page and on cards
# and notes, links on the page, on cards and notes, a button's text on the accent, the header.
PAIRS = [
    ("--fg", "--bg"), ("--fg", "--card"), ("--fg", "--note"), ("--fg", "--note-ok"),
    ("--fg", "--note-bad"), ("--fg", "--highlight"), ("--fg", "--hover"),
    ("--muted", "--bg"), ("--muted", "--card"),
    ("--accent", "--bg"), ("--accent", "--card"), ("--accent", "--note"),
    ("--accent-fg", "--accent"), ("--header-fg", "--header-bg"),
    ("--note-warn-fg", "--note-warn"),
    ("--bad", "--card"), ("--bad", "--bg"), ("--ok", "--card"), ("--ok", "--bg"),
    ("--mark-doubtful", "--card"), ("--mark-mistake", "--card"),
]  # fmt: skip


def scheme(path: str) -> dict[str, str]:
    roots = [values for selector, values in blocks(path) if selector == ":root"]
    assert len(roots) == 1, path
    return {name: value.strip() for name, value in roots[0].items()}


def colours(path: str) -> dict[str, str]:
    return {name: value for name, value in scheme(path).items() if value.startswith("#")}


@pytest.mark.parametrize("sheet", ["css/site.css", "css/dark.css"])
def test_text_reads_on_every_surface(sheet):
    values = colours(sheet)
    low = [
        f"{text} on {ground}: {contrast(values[text], values[ground]):.2f}"
        for text, ground in PAIRS
        if contrast(values[text], values[ground]) < 4.5
    ]
    assert not low, low


def test_dark_gives_every_light_colour_a_value_of_its_own():
    light, dark = colours("css/site.css"), colours("css/dark.css")
    assert set(dark) == set(light)
    assert [name for name in light if light[name] == dark[name]] == []
