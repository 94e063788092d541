"""config/patches/twisted_writes.py: frames sent at once must still arrive whole and in order,
also when only part of a write is sent at once (Twisted sends at most 128 KiB per call; the rest
goes through its buffer, and later writes queue behind it)."""

from __future__ import annotations

import hashlib
import socket
import subprocess
import sys
import textwrap

import pytest

SERVER = textwrap.dedent(
    """
    import asyncio, sys
    from twisted.internet import asyncioreactor
    asyncioreactor.install(asyncio.new_event_loop())
    from twisted.internet import protocol, reactor
    from config.patches import twisted_writes
    twisted_writes.apply()

    class Writer(protocol.Protocol):
        def connectionMade(self):
            # Small writes (sent at once), one far larger than the socket buffer (partly
            # buffered), then small ones again: they must queue behind the buffered rest.
            for index in range(200):
                self.transport.write(b"small %d;" % index)
            self.transport.write(bytes(range(256)) * 40_000)
            for index in range(200):
                self.transport.write(b"after %d;" % index)
            self.transport.loseConnection()

    class Factory(protocol.Factory):
        protocol = Writer

    port = reactor.listenTCP(0, Factory(), interface="127.0.0.1")
    print(port.getHost().port, flush=True)
    reactor.callLater(20, reactor.stop)
    reactor.run()
    """
)


def expected() -> bytes:
    small = b"".join(b"small %d;" % index for index in range(200))
    after = b"".join(b"after %d;" % index for index in range(200))
    return small + bytes(range(256)) * 40_000 + after


@pytest.mark.integration  # starts a process
def test_everything_written_arrives_in_order():
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        received = bytearray()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            while chunk := client.recv(65536):
                received += chunk
        assert len(received) == len(expected())
        assert hashlib.sha256(received).digest() == hashlib.sha256(expected()).digest()
    finally:
        server.kill()
        server.wait()
