"""The opponent's move stays on the board, in a real browser against the real site: White's steps
(played through the services) fly along their path on Black's page and a spectator's, read
while they are in the air; the finished turn's dice and from/to points stay until Black rolls
(the marks until Black's first step); with reduced motion nothing flies; the replay is drawn
from the viewer's side, flips, and flies the turn played forward. Phone and desktop, English
and Russian. Screenshots go to /tmp/motion-shots/."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from games import services
from games.dice import push_test_dice
from games.models import Match
from nardy.sequences import Step
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread, seam_site
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["seam_site"]  # the fixture, used by name below

SHOTS = Path("/tmp/motion-shots")
CASES = [
    pytest.param({"width": 390, "height": 844}, "en", id="phone-en"),
    pytest.param({"width": 1280, "height": 800}, "ru", id="desktop-ru"),
]

# Every animation frame, where the checker in the air is (none: nothing is flying).
SAMPLER = """() => {
  window.flightSamples = [];
  const look = () => {
    const c = document.querySelector('.checker.moving');
    if (c) window.flightSamples.push({x: +c.getAttribute('cx'), y: +c.getAttribute('cy'),
      from: c.dataset.from, to: c.dataset.to});
    requestAnimationFrame(look);
  };
  look();
}"""


def _centre(page, selector: str) -> tuple[float, float]:
    """The SVG coordinates of a drawn checker's centre."""
    return tuple(float(page.locator(selector).first.get_attribute(a)) for a in ("cx", "cy"))  # type: ignore[return-value]


def _trail(page) -> list[tuple[str, str, float, float]]:
    """Every 50 ms of the page's (paused) clock, the flying checker's flight and place, until
    none flies."""
    page.wait_for_selector(".checker.moving")
    trail = []
    while page.locator(".checker.moving").count():
        moving = page.locator(".checker.moving")
        trail.append(
            (moving.get_attribute("data-from"), moving.get_attribute("data-to"))
            + _centre(page, ".checker.moving")
        )
        page.clock.run_for(50)
    return trail


def _in_the_air(trail, start: tuple, end: tuple) -> list[tuple]:
    """The places read clearly away from both ends of the flight."""
    return [p for p in trail if math.dist(p, start) > 15 and math.dist(p, end) > 15]


def _page(browser, site, client, user, viewport, language, **context_options):
    if user is None:
        page = browser.new_context(viewport=viewport, **context_options).new_page()
    else:
        page = logged_in_page(browser, site, client.__class__, user)
        page.set_viewport_size(viewport)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def _play(user, match_id: int, command: str, **fields) -> None:
    version = Match.objects.get(pk=match_id).version
    function = {"roll": services.game_roll, "step": services.game_step_play}[command]
    if "step" in fields:
        fields["step"] = Step(*fields["step"])
    off_the_browser_thread(function, user=user, match_id=match_id, version=version, **fields)


def _started_match(name: str, *dice: int):
    """A 1-point match between two new players, White (its creator) to roll; `dice` queued."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    white, black = make_user(f"{name}_w"), make_user(f"{name}_b")
    match = off_the_browser_thread(services.match_create, creator=white, turn_seconds=120)
    push_test_dice(*dice)
    off_the_browser_thread(services.match_accept, user=black, match_id=match.pk)
    return white, black, match


@pytest.mark.parametrize(("viewport", "language"), CASES)
def test_the_opponents_turn_flies_and_stays_marked_until_i_roll(
    browser, seam_site, client, viewport, language
):
    tag = f"{viewport['width']}-{language}"
    # White starts and rolls 6-5; then Black rolls 3-1.
    white, black, match = _started_match(f"fly_{tag}", 6, 1, 6, 5, 3, 1)
    pages = {
        "black": _page(browser, seam_site, client, black, viewport, language),
        "spectator": _page(browser, seam_site, client, None, viewport, language),
        "still": _page(
            browser, seam_site, client, None, viewport, language, reduced_motion="reduce"
        ),
    }
    for name, page in pages.items():
        if name != "still":
            # The page's clock (timers and animation frames) goes only as the test says, so the
            # checker is read in the air however slowly this machine draws frames.
            page.clock.install()
        page.goto(f"{seam_site.url}/matches/{match.pk}/")
        page.wait_for_selector('#match-app[data-phase="roll"][data-turn="w"]')
        page.evaluate(SAMPLER)
        if name != "still":
            page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    bp = pages["black"]
    # From Black's side White's head (index 23) is Black's own 12, bottom left.
    assert bp.get_attribute('.pt[data-index="23"]', "data-point") == "12"
    _play(white, match.pk, "roll")
    _play(white, match.pk, "step", step=[24, 18, 6])
    for name in ("black", "spectator"):
        page = pages[name]
        flown = _trail(page)
        assert {f[:2] for f in flown} == {("23", "17")}, (name, flown)
        trail = [f[2:] for f in flown]
        start = _centre(page, '.pt[data-index="23"] .checker.top')
        end = _centre(page, '.pt[data-index="17"] .checker.top')
        # Read in the air: it left the head and went on, by every reading, towards White's 18.
        assert len(_in_the_air(trail, start, end)) >= 3, (name, trail, start, end)
        gone = [math.dist(p, trail[0]) for p in trail]
        assert gone == sorted(gone), (name, trail)
        if name == "black":
            # Along its path (over the points between), not straight across: Black sees White's
            # 24..18 along the bottom row, left to right, staying in the bottom half.
            assert all(y > 244 for _, y in trail) and trail[-1][0] > trail[0][0]
    pages["spectator"].screenshot(path=str(SHOTS / f"spectator-{tag}.png"))
    _play(white, match.pk, "step", step=[18, 13, 5])  # the turn ends: Black to roll
    for page in (bp, pages["spectator"]):
        page.wait_for_selector('#match-app[data-turn="b"]')
        page.clock.run_for(2000)  # the second step flies and lands
    bp.wait_for_selector('#match-app[data-phase="roll"][data-turn="b"]')
    assert bp.locator(".checker.moving").count() == 0
    # White's dice and the turn's from and to stay on Black's board until Black rolls.
    assert bp.eval_on_selector_all(
        ".dice.last-turn .die", "ds => ds.map(d => d.dataset.die).sort()"
    ) == ["5", "6"]
    marks = bp.eval_on_selector_all(
        ".pt[data-last]", "ps => ps.map(p => [p.dataset.index, p.dataset.last])"
    )
    assert sorted(marks) == [["12", "to"], ["23", "from"]]
    bp.screenshot(path=str(SHOTS / f"last-turn-{tag}.png"))
    still = pages["still"]
    still.wait_for_selector('#match-app[data-turn="b"]')
    assert still.evaluate("window.flightSamples") == []  # reduced motion: nothing flew
    assert still.locator(".pt[data-last]").count() == 2
    bp.locator("#roll-button").click()
    bp.wait_for_selector('#match-app[data-phase="move"]')
    assert bp.locator(".dice.last-turn").count() == 0
    assert bp.eval_on_selector_all(".dice .die", "ds => ds.map(d => d.dataset.die)") == [
        "3",
        "1",
    ]
    assert bp.locator(".pt[data-last]").count() == 2  # marks kept until Black's first step
    bp.click("[data-point].legal-source >> nth=0")
    # One step, 24 to 21 with the 3: the first destination on the board, 20, is both dice at once
    # (docs/protocol.md `combined_moves`), a whole turn, after which White's turn begins with no
    # steps, as soon as the server answers, perhaps before this test's first look.
    bp.click('.legal-destination[data-point="21"]')
    bp.wait_for_function("() => window.matchApp.view.game.steps.length >= 1")
    assert bp.evaluate("window.matchApp.view.game.steps") == [[24, 21, 3]]
    marks = bp.eval_on_selector_all(
        ".pt[data-last]", "ps => ps.map(p => [p.dataset.point, p.dataset.last])"
    )
    assert sorted(marks) == [["21", "to"], ["24", "from"]]
    # The own step was drawn at once: nothing flies for it (the paused clock would hold it).
    assert bp.locator(".checker.moving").count() == 0
    for name, page in pages.items():
        assert page.errors == [], (name, page.errors)


@pytest.mark.parametrize(("viewport", "language"), CASES)
def test_the_replay_is_drawn_from_my_side_flips_and_flies_each_turn(
    browser, seam_site, client, viewport, language
):
    tag = f"{viewport['width']}-{language}"
    white, black, match = _started_match(f"rep_{tag}", 6, 1, 6, 5)
    _play(white, match.pk, "roll")
    _play(white, match.pk, "step", step=[24, 18, 6])
    _play(white, match.pk, "step", step=[18, 13, 5])
    off_the_browser_thread(services.match_resign, user=black, match_id=match.pk)
    page = _page(browser, seam_site, client, black, viewport, language)
    page.clock.install()
    page.goto(f"{seam_site.url}/matches/{match.pk}/replay/")
    page.wait_for_selector("#replay-app[data-ready='1']")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    # Black's side: White's head (index 23) is Black's own 12.
    assert page.get_attribute('.pt[data-index="23"]', "data-point") == "12"
    page.keyboard.press("ArrowRight")
    flown = _trail(page)
    assert list(dict.fromkeys(f[:2] for f in flown)) == [("23", "17"), ("17", "12")]
    start = _centre(page, '.pt[data-index="23"] .checker.top')
    end = _centre(page, '.pt[data-index="12"] .checker.top')
    assert _in_the_air([f[2:] for f in flown], start, end)
    assert sorted(
        page.eval_on_selector_all(
            ".pt[data-last]", "ps => ps.map(p => [p.dataset.index, p.dataset.last])"
        )
    ) == [["12", "to"], ["23", "from"]]
    page.screenshot(path=str(SHOTS / f"replay-black-{tag}.png"))
    page.click("#flip-button")
    assert page.get_attribute('.pt[data-index="23"]', "data-point") == "24"
    assert page.get_attribute("#flip-button", "aria-pressed") == "true"
    page.screenshot(path=str(SHOTS / f"replay-flipped-{tag}.png"))
    assert page.errors == []
