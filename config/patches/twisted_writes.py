"""Send at once what a Twisted TCP connection writes while nothing is waiting to be sent.

Twisted's `FileDescriptor.write` only buffers and registers the socket for writability; the
asyncio reactor then turns every WebSocket frame Daphne sends into two `epoll_ctl` calls (add the
writer, remove it once written) and an extra trip round the event loop. Under load that was a
tenth of the event loop's time (py-spy on bench/live_load.py). When nothing is buffered, this
tries `send()` first, as asyncio's own transports do, and hands only what is left (or everything,
on any error, so Twisted's own path reports it) to the original method. Applied by
web/asgi.py, i.e. only inside Daphne, through config.patches.apply_all().

Measured: bench/live_load.py at 250 matches, p50 43 -> 27 ms and p99 736 -> 253 ms, Daphne 6.6 ->
5.9 ms CPU per command (commit a210346, with the GC freeze in web/asgi.py).
"""

from twisted.internet.abstract import FileDescriptor

from config.patches import Upstream

UPSTREAM = Upstream(
    distribution="twisted",
    version="26.10.0",
    sources={
        "twisted.internet.abstract:FileDescriptor.write": (
            "3e46c97fc173bc7e227065420969c27688f24903c27dcc165b63166a605d688c"
        ),
    },
)
_buffered_write = FileDescriptor.write


def write(self: FileDescriptor, data: bytes) -> None:
    if (
        data
        and self.connected
        and not self.disconnecting
        and not self._writeDisconnected
        and not self._tempDataLen
        and self.offset == len(self.dataBuffer)
    ):
        sent = self.writeSomeData(data)
        if isinstance(sent, int) and sent > 0:
            if sent == len(data):
                return
            data = data[sent:]
    _buffered_write(self, data)


def apply() -> None:
    FileDescriptor.write = write
