"""Content-Security-Policy violations in Chromium (config/content_security_policy.py): what the
page tests of the policy share. A context watched here records every violation two ways, the
console's "Refused to …" lines and the documents' `securitypolicyviolation` events (an init
script, which Playwright runs outside the page's policy), so a test can fail on any of them."""

from __future__ import annotations

from dataclasses import dataclass, field

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI || "inline"}`);
});
"""
# Runs an inline script in the page, which the policy must refuse: proof that the policy is
# there and that the watch sees a refusal.
INLINE_SCRIPT = """() => {
  const script = document.createElement("script");
  script.textContent = "window.__inlineRan = true";
  document.body.append(script);
  return window.__inlineRan === true;
}"""


@dataclass
class Violations:
    console: list[str] = field(default_factory=list)

    def watch(self, context) -> None:
        context.add_init_script(RECORD_VIOLATIONS)

        def on_page(page) -> None:
            page.on("console", lambda message: self._console(page, message))

        context.on("page", on_page)
        for page in context.pages:
            on_page(page)

    def _console(self, page, message) -> None:
        if is_refusal(message):
            self.console.append(f"{page.url}: {message.text}")

    def of(self, page) -> list[str]:
        """The page's violations so far: its events, and the console's lines for any page."""
        events = page.evaluate("() => window.__cspViolations || []")
        return [f"{page.url}: {event}" for event in events] + self.console

    def prove_live(self, page) -> None:
        """An inline script is refused, and the refusal is seen both ways; then forgotten."""
        with page.expect_console_message(is_refusal, timeout=10_000):
            assert page.evaluate(INLINE_SCRIPT) is False, "an inline script ran: no policy"
        page.wait_for_function("() => window.__cspViolations.length > 0")
        assert any("script-src" in line for line in self.of(page)), self.of(page)
        page.evaluate("() => { window.__cspViolations = []; }")
        self.console.clear()


def is_refusal(message) -> bool:
    """A console line of a refusal: older Chromium wrote "Refused to execute inline script
    because it violates …", newer "Executing inline script violates the following Content
    Security Policy directive … The action has been blocked."."""
    return "Refused to" in message.text or "Content Security Policy" in message.text
