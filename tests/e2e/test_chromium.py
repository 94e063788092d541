"""The browser tests' teardown is bounded (tests/chromium.py): a Chromium that stops answering
while a test's contexts close is killed by the watchdog, the close returns, and the next browser
test gets a fresh Chromium that works. The hang is made for real: the browser's processes are
stopped (SIGSTOP), so Playwright's calls wait for an answer that never comes."""

from __future__ import annotations

import threading
import time

import psutil
import pytest

from tests.chromium import BASE_FLAGS, Chromium

pytestmark = pytest.mark.browser

WATCHDOG_SECONDS = 2.0
# Far above the watchdog's 2 s and the few seconds a killed browser takes to be reported gone on
# a loaded machine; a close still waiting then has not been rescued by the watchdog.
RESCUED_WITHIN_SECONDS = 20.0


def test_a_hung_close_is_killed_and_the_next_test_gets_a_fresh_chromium():
    chromium = Chromium(*BASE_FLAGS, close_seconds=WATCHDOG_SECONDS)
    page = chromium.browser().new_context().new_page()
    page.set_content("<p>playing</p>")
    chromium.close_contexts()  # a healthy close: nothing killed
    assert chromium.killed == 0 and chromium.running

    page = chromium.browser().new_context().new_page()
    page.set_content("<p>playing</p>")
    hung = chromium.processes()
    assert hung, "the marker finds the launched Chromium among this process's descendants"
    # If the watchdog failed, this test's own rescue ends the hang, so the test fails, not hangs.
    rescue = threading.Timer(RESCUED_WITHIN_SECONDS * 2, lambda: [p.kill() for p in hung])
    rescue.start()
    try:
        for process in hung:
            process.suspend()
        started = time.monotonic()
        with pytest.warns(UserWarning, match="killed"):
            chromium.close_contexts()
        took = time.monotonic() - started
    finally:
        rescue.cancel()
        for process in hung:
            try:
                process.kill()
            except psutil.Error:
                pass
    assert chromium.killed == 1
    assert WATCHDOG_SECONDS <= took < RESCUED_WITHIN_SECONDS, took
    assert not chromium.running
    _, alive = psutil.wait_procs(hung, timeout=10)
    assert alive == []

    fresh = chromium.browser().new_context().new_page()
    fresh.set_content("<p id=fresh>fresh</p>")
    assert fresh.locator("#fresh").inner_text() == "fresh"
    assert set(chromium.processes()).isdisjoint(hung)
    chromium.close_contexts()
    assert chromium.killed == 1
    last = chromium.processes()
    chromium.stop()
    _, alive = psutil.wait_procs(last, timeout=10)
    assert alive == []
