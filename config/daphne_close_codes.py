"""Let Daphne close sockets with the RFC 6455 server codes (1001, 1008, 1011, 1013).

Autobahn's `sendClose` accepts only 1000 and 3000–4999, although RFC 6455 §7.4.1 defines 1008
("policy violation") exactly for a server closing an abusive client — what lila-ws sends when a
play socket exceeds its rate limit. Daphne's `serverClose` goes through `sendClose`; for those
codes we send the close frame directly. Imported by config/asgi.py, i.e. only inside Daphne.
"""

from daphne.ws_protocol import WebSocketProtocol

RFC_SERVER_CLOSE_CODES = frozenset({1001, 1008, 1011, 1013})
_daphne_server_close = WebSocketProtocol.serverClose


def server_close(self: WebSocketProtocol, code: int | None = None) -> None:
    if code in RFC_SERVER_CLOSE_CODES:
        self.sendCloseFrame(code=code, isReply=False)
        return
    _daphne_server_close(self, code)


WebSocketProtocol.serverClose = server_close
