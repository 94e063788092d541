"""A refused command: a code for programs (docs/protocol.md) and a translated message for people.

Raised by every app's services (games, chat, pairing, moderation) and answered on sockets as an
`error` frame, on pages as a message; it lives below them all so none imports another for it.
"""

from __future__ import annotations


class CommandError(Exception):
    """A refused command: `code` for programs (docs/protocol.md), message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
