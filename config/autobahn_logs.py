"""Stop Autobahn from formatting a debug line's arguments for every WebSocket frame.

`sendData` and `dataReceived` call `self.log.debug(..., func=hltype(...), peer=hlval(...))` on
every frame. The debug call itself is a no-op unless debug logging is on (txaio), but its
arguments are built first: a qualified-name lookup and two `click.style` colourings each. Under
load that was about 5 % of a Daphne process's CPU (py-spy on bench/live_load.py at 500 matches).

In the two modules that log per frame, the helpers are replaced by one that returns its argument
as it is: if someone turns Autobahn's debug logging on, the lines show plain values instead of
coloured ones. Imported by config/asgi.py, i.e. only inside Daphne.
"""

from autobahn.twisted import websocket as twisted_websocket
from autobahn.websocket import protocol


def _plain(value, *args, **kwargs):
    return value


for _module in (protocol, twisted_websocket):
    _module.hltype = _plain
    _module.hlval = _plain
