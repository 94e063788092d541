"""`python -m config.server [Daphne's arguments]`: Daphne on uvloop's event loop.

Daphne runs Twisted's asyncio reactor on a loop it makes with `asyncio.new_event_loop()` when
`daphne.server` is first imported; with uvloop's policy set before that import, the loop is
uvloop's (the callbacks, timers and thread wake-ups the reactor and our sockets schedule, and the
asyncio transports of the Redis connections, run in C). Measured with bench/live_load.py at 250
matches, back to back with `python -m daphne`: 4-13 % less Daphne CPU per command (two pairs:
3.24 -> 2.83 and 3.01 -> 2.89 ms). Everything else is Daphne's own command line; the launcher,
the benchmarks and the systemd unit start the site through this module.

Event loop policies are deprecated from Python 3.14 on; `install_loop` is the one place to change
then.
"""

from __future__ import annotations

import asyncio
import sys

import uvloop


def install_loop() -> None:
    """Make the next `asyncio.new_event_loop()` (Daphne's, at import) a uvloop loop."""
    if "daphne.server" in sys.modules:
        raise RuntimeError("daphne.server is imported already: its loop is made")
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def main() -> int | None:
    install_loop()
    from daphne.cli import CommandLineInterface  # after the policy: it imports daphne.server

    return CommandLineInterface.entrypoint()


if __name__ == "__main__":
    sys.exit(main())
