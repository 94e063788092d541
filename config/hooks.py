"""Named hooks: how a lower app asks a higher one without importing it (docs/architecture.md,
"Architecture").

The lower app declares a `Hook` (one answer, filled by one app) or an `AnyOf` (several apps each
answer a yes/no question) in its own `hooks.py`; the higher app fills it in its
`AppConfig.ready()`. Calling a hook that nothing filled is a start-up mistake, so it raises
instead of answering a default.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.dispatch import Signal

log = logging.getLogger(__name__)


class Hook:
    """One function that a higher app provides."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._function: Callable[..., Any] | None = None

    def fill(self, function: Callable[..., Any]) -> None:
        if self._function is not None and self._function is not function:
            raise RuntimeError(f"the hook {self.name} is filled already")
        self._function = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._function is None:
            raise RuntimeError(f"nothing filled the hook {self.name}")
        return self._function(*args, **kwargs)


class AnyOf:
    """A yes/no question that several higher apps may each answer: yes when one of them says so."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._checks: list[Callable[..., bool]] = []

    def add(self, check: Callable[..., bool]) -> None:
        if check not in self._checks:
            self._checks.append(check)

    def __call__(self, *args: Any, **kwargs: Any) -> bool:
        if not self._checks:
            raise RuntimeError(f"nothing answers the hook {self.name}")
        return any(check(*args, **kwargs) for check in self._checks)


def send_to_all(signal: Signal, name: str, about: str, **kwargs: Any) -> None:
    """Send `signal` after a commit: every receiver runs even when one raises (what they answer
    to is done whatever they do), and each failure is logged with the receiver, the signal's
    `name` and what it was `about` ("match 12")."""
    for receiver, answer in signal.send_robust(**kwargs):
        if isinstance(answer, Exception):
            log.error(
                "a %s receiver (%s) failed for %s",
                name, getattr(receiver, "__qualname__", receiver), about, exc_info=answer,
            )  # fmt: skip
