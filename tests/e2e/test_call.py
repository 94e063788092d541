"""Face to face at the table in a real Chromium with fake camera and microphone: two players in
two contexts turn both on, each page's RTCPeerConnection reaches `connected` and receives the
other's live audio and video; a spectator's page has no call and receives no call frame; mute and
camera-off reach the other side (the opponent's track is disabled there), turning the opponent's
video or sound off is local; resigning, leaving the table and the match ending elsewhere each hang
up both pages (docs/protocol.md "Calls")."""

from __future__ import annotations

import json
import os

import pytest

from games import services
from tests.chromium import CALL_CHROMIUM
from tests.e2e.test_live_match import logged_in_page, off_the_browser_thread
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("SCREENSHOT_DIR")  # set to keep screenshots (e.g. /tmp/call-shots)

REMOTE = """kind => {
  const call = window.matchApp.call;
  const tracks = call && call.remoteStream ? call.remoteStream.getTracks() : [];
  const track = tracks.find(t => t.kind === kind);
  return track ? {enabled: track.enabled, state: track.readyState} : null;
}"""
CONNECTED = """() => {
  const call = window.matchApp.call;
  if (!call || !call.pc || call.pc.connectionState !== 'connected') return false;
  const tracks = call.remoteStream.getTracks();
  const live = kind => tracks.some(t => t.kind === kind && t.readyState === 'live');
  return live('audio') && live('video') && call.tile.videoWidth > 0;
}"""
HUNG_UP = """() => {
  const call = window.matchApp.call;
  return call.pc === null && !call.inCall && call.local.audio === null && call.local.video === null
    && document.querySelector('#call-panel').hidden;
}"""


@pytest.fixture
def browser():
    """The call's own Chromium, with the fake camera and microphone (tests/chromium.py): the
    other browser tests' pages never share a browser with live media and peer connections."""
    yield from CALL_CHROMIUM.contexts()


def shoot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=False)


def open_table(site, browser, client, names: tuple[str, str], languages=("en", "en")):
    white, black = make_user(names[0]), make_user(names[1])
    match = off_the_browser_thread(
        services.match_create, creator=white, turn_seconds=None, rated=False
    )
    off_the_browser_thread(services.match_accept, user=black, match_id=match.pk)
    pages = [logged_in_page(browser, site, client.__class__, user) for user in (white, black)]
    for page, language in zip(pages, languages, strict=True):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
        page.goto(f"{site.url}/matches/{match.pk}/")
        page.wait_for_function(
            "() => window.matchApp && window.matchApp.session.connection === 'open'"
        )
        page.locator("#call-panel").wait_for()
    return match, (white, black), pages


def call_up(pages) -> None:
    for page in pages:
        page.click("#call-camera")
        page.wait_for_function(
            "() => document.querySelector('#call-camera').ariaPressed === 'true'"
        )
        page.click("#call-mic")
        page.wait_for_function("() => document.querySelector('#call-mic').ariaPressed === 'true'")
    for page in pages:
        page.wait_for_function(CONNECTED, timeout=20_000)


def test_two_players_see_and_hear_each_other_and_no_spectator_is_in_it(site, browser, client):
    match, _, (white, black) = open_table(site, browser, client, ("callw1", "callb1"), ("en", "ru"))
    watcher_user = make_user("calls1")
    watcher = logged_in_page(browser, site, client.__class__, watcher_user)
    frames: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    watcher.goto(f"{site.url}/matches/{match.pk}/")
    watcher.wait_for_function(
        "() => window.matchApp && window.matchApp.session.connection === 'open'"
    )
    assert watcher.locator("#call-panel").count() == 0
    assert watcher.evaluate("window.matchApp.call") is None

    call_up((white, black))
    for page in (white, black):
        assert page.evaluate(REMOTE, "audio") == {"enabled": True, "state": "live"}
        assert page.evaluate(REMOTE, "video") == {"enabled": True, "state": "live"}
        assert page.locator("#call-tile-opponent").is_visible()
        assert page.locator("#call-tile-self").is_visible()
    for width, height in ((1280, 800), (390, 844)):
        for page, language in ((white, "en"), (black, "ru")):
            page.set_viewport_size({"width": width, "height": height})
            shoot(page, f"call-{language}-{width}")
    assert "Лицом к лицу" in black.locator("#call-panel").inner_text()

    # Mute and camera-off reach the other side: the opponent's tracks are disabled there.
    white.click("#call-mic")
    black.wait_for_function(f"() => ({REMOTE})('audio').enabled === false")
    white.click("#call-camera")
    black.wait_for_function(f"() => ({REMOTE})('video').enabled === false")
    black.locator("#call-tile-opponent").wait_for(state="hidden")
    assert white.evaluate("window.matchApp.call.local.video") is None  # the camera is off
    white.click("#call-camera")
    white.click("#call-mic")
    black.wait_for_function(
        "() => "
        f"({REMOTE})('video').enabled && ({REMOTE})('audio').enabled && "
        "document.querySelector('#call-tile-opponent').videoWidth > 0"
    )
    # Turning the opponent's video and sound off is for oneself: the opponent still sends.
    black.check("#call-hide-video")
    black.check("#call-hide-sound")
    black.wait_for_function(f"() => !({REMOTE})('video').enabled && !({REMOTE})('audio').enabled")
    assert white.evaluate(f"({REMOTE})('video').enabled && ({REMOTE})('audio').enabled")
    assert black.evaluate("window.matchApp.call.local.audio.enabled")

    # Resigning hangs up both pages.
    white.once("dialog", lambda dialog: dialog.accept())
    white.click("#resign-button")
    for page in (white, black):
        page.wait_for_function(HUNG_UP)
    # Not one call frame ever reached the spectator.
    watcher.evaluate("window.matchApp.session.socket.send({type: 'ping'})")
    watcher.wait_for_timeout(300)
    received = [json.loads(frame) for frame in frames if isinstance(frame, str)]
    assert any(message["type"] == "snapshot" for message in received)
    assert not [m for m in received if m["type"].startswith("call_")], received


def test_leaving_the_table_hangs_up(site, browser, client):
    _, _, (white, black) = open_table(site, browser, client, ("callw2", "callb2"))
    call_up((white, black))
    # The protocol's `leave` (docs/protocol.md), as the page sends it: the match ends, reason left.
    black.evaluate("window.matchApp.session.send('leave')")
    white.wait_for_function(HUNG_UP)  # black's page goes to the Play page once the match ends


def test_leaving_the_page_hangs_up_at_once(site, browser, client):
    _, _, (white, black) = open_table(site, browser, client, ("callw4", "callb4"))
    call_up((white, black))
    black.goto(f"{site.url}/play/")  # the page goes: it tells the opponent's page
    white.wait_for_function(
        "() => "
        "window.matchApp.call.pc === null && window.matchApp.call.peer === null"
        " && document.querySelector('#call-tile-opponent').hidden"
    )


def test_the_match_ending_elsewhere_hangs_up(site, browser, client):
    match, (white_user, _), (white, black) = open_table(site, browser, client, ("callw3", "callb3"))
    call_up((white, black))
    # The match is called off from outside these pages (another tab, a moderator's ban alike).
    off_the_browser_thread(services.match_abort, user=white_user, match_id=match.pk)
    for page in (white, black):
        page.wait_for_function(HUNG_UP)


def test_past_the_hours_credentials_the_page_shows_why_and_asks_for_no_camera(
    sites, browser, client
):
    """A person past CALL_TURN_CREDENTIALS_PER_HOUR (0 here) presses Camera: the server's refusal
    is shown in their language, and the browser is never asked for the camera."""
    site = sites.another(
        CALL_TURN_URLS="turn:127.0.0.1:9?transport=udp", CALL_TURN_SECRET="e2e-turn-secret",
        CALL_TURN_CREDENTIALS_PER_HOUR="0",
    )  # fmt: skip
    wanted = {"en": "Too many calls this hour; try again in 60 minutes.",
              "ru": "Слишком много звонков за час; попробуйте снова через 60 минут."}  # fmt: skip
    for language, text in wanted.items():
        _, _, (page, _) = open_table(
            site, browser, client, (f"callcap{language}w", f"callcap{language}b"),
            (language, language),
        )  # fmt: skip
        page.evaluate("""() => {
          window.cameraAsked = false;
          const ask = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
          navigator.mediaDevices.getUserMedia = (constraints) => {
            window.cameraAsked = true;
            return ask(constraints);
          };
        }""")
        page.click("#call-camera")
        page.locator("#toast", has_text=text).wait_for()
        assert page.evaluate("window.cameraAsked") is False
        assert page.evaluate("window.matchApp.call.inCall") is False
        assert page.locator("#call-camera").get_attribute("aria-pressed") == "false"
        for width, height in ((1280, 800), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            shoot(page, f"call-cap-{language}-{width}")
