"""The computer's levels in a real browser: a guest's Play page offers Expert and shows each
level's measured strength (from the benchmark's file), and so does the Rules page, in English and
Russian at phone and desktop sizes; screenshots go to /tmp/shots-net/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.strength import bot_strength_rows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/tmp/shots-net")
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
WORDS = {"en": ("Expert", "Measured strength"), "ru": ("Эксперт", "Измеренная сила")}


@pytest.mark.parametrize("code", sorted(WORDS))
def test_the_levels_and_their_measured_strength_at_both_sizes(site, browser, code):
    rows = bot_strength_rows()
    assert rows, "nardy/bot_strength.json has no figures yet"
    level_word, caption = WORDS[code]
    context = browser.new_context(viewport=SIZES["desktop"])
    context.add_cookies([{"name": "django_language", "value": code, "url": site.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site.url}/play/")
    page.click("#play-now")
    page.wait_for_url(re.compile(r".*/play/#computer$"))
    table = page.locator("#bot-strength")
    assert caption in page.locator("#computer").locator("..").inner_text()
    assert page.locator("#bot_level option", has_text=level_word).count() == 1
    assert table.locator("tbody tr").count() == len(rows)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        table.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"play-{code}-{name}.png"))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"the page is {width} px wide at {name}"
    page.goto(f"{site.url}/rules/")
    strength = page.locator("#computer-strength")
    assert caption in strength.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["desktop"]["width"]
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        strength.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"rules-{code}-{name}.png"))
    assert not errors
    context.close()
