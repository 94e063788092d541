"""A minimal TURN client over UDP (RFC 5766 Allocate with RFC 5389 long-term credentials), to
count the relays a coturn hands out for given credentials (tests/integration/test_turn.py,
bench/call_abuse.py). Standard library only.

Each allocation has its own UDP socket (TURN's 5-tuple, RFC 5766 section 2.2), kept open as long
as the `Allocation` is; `release()` sends a Refresh with lifetime 0 (section 7), which frees the
relay and the user's quota at once.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import socket
import struct
from dataclasses import dataclass, field

MAGIC_COOKIE = 0x2112A442
ALLOCATE, REFRESH = 0x0003, 0x0004
SUCCESS, ERROR = 0x0100, 0x0110
USERNAME, MESSAGE_INTEGRITY, ERROR_CODE = 0x0006, 0x0008, 0x0009
LIFETIME, REALM, NONCE = 0x000D, 0x0014, 0x0015
XOR_RELAYED_ADDRESS, REQUESTED_TRANSPORT = 0x0016, 0x0019
UDP = 17


class TurnError(Exception):
    """The server's ERROR-CODE answer (e.g. 486 Allocation Quota Reached, 401 Unauthorized)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"{code} {reason}")
        self.code = code
        self.reason = reason


def _attribute(kind: int, value: bytes) -> bytes:
    padding = b"\0" * (-len(value) % 4)
    return struct.pack("!HH", kind, len(value)) + value + padding


def _message(method: int, transaction: bytes, attributes: bytes) -> bytes:
    return struct.pack("!HHI", method, len(attributes), MAGIC_COOKIE) + transaction + attributes


def _signed(method: int, transaction: bytes, attributes: bytes, key: bytes) -> bytes:
    """The message with MESSAGE-INTEGRITY last: HMAC-SHA1 over the message whose length already
    counts the integrity attribute (RFC 5389 section 15.4)."""
    header = struct.pack("!HHI", method, len(attributes) + 24, MAGIC_COOKIE) + transaction
    digest = hmac.new(key, header + attributes, hashlib.sha1).digest()
    return header + attributes + _attribute(MESSAGE_INTEGRITY, digest)


def _parse(data: bytes) -> tuple[int, bytes, dict[int, bytes]]:
    kind, length, _cookie = struct.unpack("!HHI", data[:8])
    transaction, body, attributes = data[8:20], data[20 : 20 + length], {}
    while len(body) >= 4:
        name, size = struct.unpack("!HH", body[:4])
        attributes.setdefault(name, body[4 : 4 + size])
        body = body[4 + size + (-size % 4) :]
    return kind, transaction, attributes


def _error(attributes: dict[int, bytes]) -> TurnError:
    value = attributes.get(ERROR_CODE, b"\0\0\0\0")
    return TurnError(value[2] * 100 + value[3], value[4:].decode("utf-8", "replace"))


@dataclass
class Allocation:
    sock: socket.socket
    server: tuple[str, int]
    key: bytes
    username: bytes
    realm: bytes
    nonce: bytes
    relayed_port: int
    released: bool = field(default=False)

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        attributes = (_attribute(LIFETIME, struct.pack("!I", 0)) + _attribute(USERNAME, self.username)
                      + _attribute(REALM, self.realm) + _attribute(NONCE, self.nonce))  # fmt: skip
        try:
            _request(self.sock, self.server, REFRESH, attributes, self.key)
        except OSError:
            pass  # no answer: the allocation lapses by itself
        finally:
            self.sock.close()


def _request(
    sock: socket.socket, server: tuple[str, int], method: int, attributes: bytes, key: bytes | None
) -> tuple[bool, dict[int, bytes]]:
    """One request and its answer, retransmitted as RFC 5389 section 7.2.1 says (shortened):
    (True, attributes) for a success, (False, attributes) for an error answer."""
    transaction = os.urandom(12)
    message = (
        _signed(method, transaction, attributes, key) if key
        else _message(method, transaction, attributes)
    )  # fmt: skip
    for timeout in (0.5, 1.0, 2.0):
        sock.settimeout(timeout)
        sock.sendto(message, server)
        try:
            while True:
                kind, answered, found = _parse(sock.recvfrom(2048)[0])
                if answered == transaction and kind in (method | SUCCESS, method | ERROR):
                    return kind == method | SUCCESS, found
        except TimeoutError:
            continue
    raise TimeoutError("no answer from the TURN server")


def allocate(host: str, port: int, username: str, password: str) -> Allocation:
    """One UDP relay on the server for these long-term credentials; TurnError if refused."""
    server = (host, port)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.bind(("127.0.0.1" if host.startswith("127.") else "0.0.0.0", 0))
        transport = _attribute(REQUESTED_TRANSPORT, bytes([UDP, 0, 0, 0]))
        # Unsigned first: the 401 names the realm and a nonce (RFC 5389 section 10.2.1).
        allocated, challenge = _request(sock, server, ALLOCATE, transport, None)
        if allocated or _error(challenge).code != 401:
            raise TurnError(0, "the server did not ask for credentials")
        realm, nonce = challenge[REALM], challenge[NONCE]
        key = hashlib.md5(username.encode() + b":" + realm + b":" + password.encode()).digest()
        name = username.encode()
        signed = (transport + _attribute(USERNAME, name) + _attribute(REALM, realm)
                  + _attribute(NONCE, nonce))  # fmt: skip
        allocated, found = _request(sock, server, ALLOCATE, signed, key)
        if not allocated:
            raise _error(found)
        # XOR-RELAYED-ADDRESS: family, then the port XORed with the cookie's top 16 bits.
        relayed_port = struct.unpack("!H", found[XOR_RELAYED_ADDRESS][2:4])[0] ^ (
            MAGIC_COOKIE >> 16
        )
        return Allocation(sock, server, key, name, realm, nonce, relayed_port)
    except BaseException:
        sock.close()
        raise
