"""Stop Autobahn from formatting a debug line's arguments for every WebSocket frame.

`sendData` and `dataReceived` call `self.log.debug(..., func=hltype(...), peer=hlval(...))` on
every frame. The debug call itself is a no-op unless debug logging is on (txaio), but its
arguments are built first: a qualified-name lookup and two `click.style` colourings each. Under
load that was about 5 % of a Daphne process's CPU (py-spy on bench/live_load.py at 500 matches).

In the two modules that log per frame, the helpers are replaced by one that returns its argument
as it is: if someone turns Autobahn's debug logging on, the lines show plain values instead of
coloured ones. Applied by web/asgi.py, i.e. only inside Daphne, through
config.patches.apply_all().
"""

from autobahn.twisted import websocket as twisted_websocket
from autobahn.websocket import protocol

from config.patches import Upstream

UPSTREAM = Upstream(
    distribution="autobahn",
    version="26.10.2",
    sources={
        # The per-frame callers, and the helpers they stop calling.
        "autobahn.websocket.protocol:WebSocketProtocol.sendData": (
            "5dcca425b048b07eb27d56a625a790d7a8e48fbe958753074cb1e55e174b2423"
        ),
        "autobahn.twisted.websocket:WebSocketAdapterProtocol.dataReceived": (
            "7997f762de21843361fe9d6bc8df40f6517cafe310d76eb61b292aa8cecf9661"
        ),
        "autobahn.util:hltype": "7db6418e1bc5e63a2a65dd85cfb6719eb264d1fdce22ff5f72a995a5f7f75a5e",
        "autobahn.util:hlval": "c6a73ec8e6664a13c731c5758c255e4e9c4121a7698718040192dea89a8f79ee",
    },
)


def _plain(value, *args, **kwargs):
    return value


def apply() -> None:
    for module in (protocol, twisted_websocket):
        module.hltype = _plain
        module.hlval = _plain
