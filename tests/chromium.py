"""The session's headless Chromiums (Playwright driving Debian's, or Playwright's own).

One Chromium serves the browser tests of a session (per xdist worker), a fresh context per test;
the call's tests (tests/e2e/test_call.py) have one of their own, launched with a fake camera and
microphone, so no other test's page runs in a browser that holds live media and peer connections.

A test's teardown must end whatever its pages left running. Each page is first taken to
about:blank (its media, peer connections and sockets are released by the page going, not by a
context tearing them down under it), then closed without beforeunload, then its context. A
Chromium that still does not answer (a context close once hung for 900 s in CI, after hundreds
of browser tests, while a call's media was released) is killed by a watchdog after
CLOSE_SECONDS: its processes are found as descendants of this process by the marker switch it
was launched with, Playwright's pending call then returns, and the next browser test launches a
fresh Chromium. A warning says so in the run's summary.
"""

from __future__ import annotations

import os
import secrets
import shutil
import threading
import warnings
from collections.abc import Iterator

import psutil
import pytest

BASE_FLAGS = (
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip
# The call's camera and microphone (tests/e2e/test_call.py): a generated picture and tone, and the
# permission granted without a prompt.
MEDIA_FLAGS = ("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream")
INSTALL_HINT = (
    "no Chromium found: install Debian's with `apt-get install chromium`, "
    "or Playwright's with `.venv/bin/python -m playwright install chromium`"
)
# A healthy teardown of a test's contexts takes well under a second, and 2-4 s with a load of
# 10 on this 2-core machine (measured on the browser tests); past this the browser is wedged.
CLOSE_SECONDS = 20.0
LEAVE_PAGE_MS = 5_000
MARKER = "--nardy-test-browser"  # an unknown switch, which Chromium ignores: it names the process


def find_chromium() -> str | None:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


class Driver:
    """Playwright's driver, shared by the session's Chromiums: the sync API allows one per thread.

    Playwright's sync API keeps its event loop marked as running in this thread while it lives:
    Django's async-safety check and `async_to_sync` see it. Django's own database calls from this
    thread (fixtures, flushes) stay synchronous and safe, so DJANGO_ALLOW_ASYNC_UNSAFE is set for
    that time; services, which publish through `async_to_sync`, run on another thread in these
    tests (`off_the_browser_thread`)."""

    def __init__(self) -> None:
        self._playwright = None
        self._allow_async_unsafe: str | None = None

    def playwright(self):
        if self._playwright is None:
            from playwright.sync_api import sync_playwright

            self._allow_async_unsafe = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            self._playwright = sync_playwright().start()
        return self._playwright

    def stop(self) -> None:
        if self._playwright is None:
            return
        try:
            self._playwright.stop()
        finally:
            self._playwright = None
            if self._allow_async_unsafe is None:
                os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            else:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = self._allow_async_unsafe


DRIVER = Driver()


class WorkerOff:
    """The browser as tests get it: a context it opens runs no service worker unless the test
    asks (`service_workers="allow"`, tests/e2e/test_installable.py, whose subject it is). The
    site's worker (web/pwa.py) fetches every static file when it installs, and again each time
    the page's language changes its URL; on a loaded CI machine a navigation behind that install
    waited past 30 s (tests/e2e/test_languages.py's match page, another day the rules page's
    load event). Everything else is the browser's own."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        return self._browser.new_context(**{"service_workers": "block", **options})

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


class Chromium:
    """One headless Chromium, launched by the first test that asks and kept for the next ones;
    relaunched when it was killed or died."""

    def __init__(self, *flags: str, close_seconds: float = CLOSE_SECONDS) -> None:
        self.flags = flags
        self.close_seconds = close_seconds
        self._browser = None
        self._marker = ""
        self.killed = 0  # how many times the watchdog killed it (tests/e2e/test_chromium.py)

    @property
    def running(self) -> bool:
        return self._browser is not None

    def browser(self):
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        self._browser = None
        executable = find_chromium()
        playwright = DRIVER.playwright()
        if executable is None and not os.path.exists(playwright.chromium.executable_path):
            if os.environ.get("CI") == "true":
                pytest.fail(f"CI=true and {INSTALL_HINT}")
            pytest.skip(INSTALL_HINT)
        self._marker = f"{MARKER}={os.getpid()}-{secrets.token_hex(6)}"
        self._browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=[*self.flags, self._marker]
        )
        return self._browser

    def processes(self) -> list[psutil.Process]:
        """This Chromium's processes: the one launched with its marker, and its descendants."""
        found: list[psutil.Process] = []
        for process in psutil.Process().children(recursive=True):
            try:
                if self._marker and self._marker in process.cmdline():
                    found += [process, *process.children(recursive=True)]
            except psutil.Error:
                continue
        return found

    def _kill(self) -> None:
        self.killed += 1
        for process in self.processes():
            try:
                process.kill()
            except psutil.Error:
                continue

    def close_contexts(self) -> None:
        """Leave every page, close it and its context; past close_seconds, kill this Chromium."""
        if self._browser is None:
            return
        from playwright.sync_api import Error as PlaywrightError

        killed_before = self.killed
        watchdog = threading.Timer(self.close_seconds, self._kill)
        watchdog.daemon = True
        watchdog.start()
        try:
            for context in list(self._browser.contexts):
                for page in list(context.pages):
                    try:
                        page.goto("about:blank", timeout=LEAVE_PAGE_MS)
                    except PlaywrightError:
                        pass  # a page that cannot leave is closed all the same
                    try:
                        page.close(run_before_unload=False)
                    except PlaywrightError:
                        pass
                context.close()
        except PlaywrightError:
            if self.killed == killed_before:
                raise
        finally:
            watchdog.cancel()
        if self.killed != killed_before:
            self._browser = None  # the next browser test launches a fresh one
            warnings.warn(
                f"Chromium did not close a test's contexts in {self.close_seconds:.0f} s: "
                "killed, a fresh one is launched for the next browser test",
                stacklevel=1,
            )

    def contexts(self) -> Iterator[object]:
        """For a fixture: the browser (its contexts running no service worker unless asked:
        WorkerOff), and after the test its contexts closed."""
        launched = self.browser()
        yield WorkerOff(launched)
        self.close_contexts()

    def stop(self) -> None:
        browser, self._browser = self._browser, None
        if browser is not None and browser.is_connected():
            watchdog = threading.Timer(self.close_seconds, self._kill)
            watchdog.daemon = True
            watchdog.start()
            from playwright.sync_api import Error as PlaywrightError

            try:
                browser.close()
            except PlaywrightError:
                pass  # killed by the watchdog: gone all the same
            finally:
                watchdog.cancel()


CHROMIUM = Chromium(*BASE_FLAGS)
CALL_CHROMIUM = Chromium(*BASE_FLAGS, *MEDIA_FLAGS)


def stop_chromiums() -> None:
    """After the last browser test of the session: every Chromium, then Playwright's driver."""
    try:
        for chromium in (CHROMIUM, CALL_CHROMIUM):
            chromium.stop()
    finally:
        DRIVER.stop()
