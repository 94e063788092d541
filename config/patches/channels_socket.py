"""Two shortcuts of our socket base (realtime/socket.py) past Channels' own code.

1. `dispatch_without_connection_hop` is Channels' `AsyncConsumer.dispatch` without its
   `aclose_old_connections()` hop before every message. That hop runs on the process's one
   thread-sensitive worker thread, so each relayed event waited behind other sockets' database
   work. Our handlers never use the ORM themselves: every database call goes through
   DatabaseSyncToAsync, which closes stale connections around itself in its own thread.
2. `send_past_session_wrapper` sends a socket's frames straight to the server. Channels' session
   middleware wraps `send` to save the session, but only on HTTP responses
   (`save_message_types`); for a socket it reads the lazy session and the settings on every frame,
   about 3 % of a Daphne process under load (py-spy on bench/live_load.py at 500 matches).

Neither replaces anything in Channels; both depend on how it works inside, hence the guard: with
another Channels, or changed sources, `USABLE` is False and SiteSocket uses Channels' own paths.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.consumer import get_handler_name
from channels.sessions import InstanceSessionWrapper

from config.patches import Upstream, mismatch

log = logging.getLogger(__name__)

UPSTREAM = Upstream(
    distribution="channels",
    version="4.3.2",
    sources={
        "channels.consumer:AsyncConsumer.dispatch": (
            "39f34e7d4fb0f6552de4ade665b943fe78137379702af6b58c79a14c49a75520"
        ),
        "channels.sessions:InstanceSessionWrapper.send": (
            "e951315e4ef0f195877b12d53081c59edc05d409b04576cebc513eaf611364b5"
        ),
        "channels.sessions:InstanceSessionWrapper.__init__": (
            "1aed8029d4065532a2a49bad5bed7f09bfc7d88bf149fbbd30bbcaa64a993f52"
        ),
    },
)

_reason = mismatch(UPSTREAM)
USABLE = _reason is None
if not USABLE:
    log.warning("sockets use Channels' own dispatch and session wrapper: %s", _reason)


async def dispatch_without_connection_hop(consumer, message: dict[str, Any]) -> None:
    handler = getattr(consumer, get_handler_name(message), None)
    if handler is None:
        raise ValueError(f"No handler for message type {message['type']}")
    await handler(message)


def send_past_session_wrapper(consumer) -> None:
    wrapper = getattr(consumer.base_send, "__self__", None)
    real_send = getattr(wrapper, "real_send", None)
    if (
        isinstance(wrapper, InstanceSessionWrapper)
        and real_send is not None
        and not any(kind.startswith("websocket.") for kind in wrapper.save_message_types)
    ):
        consumer.base_send = real_send
