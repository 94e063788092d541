"""The ICE servers a player's browser is given for a call (docs/protocol.md "Calls").

STUN and TURN URLs come from the settings (the environment). TURN never gets a static password
in a page: a player gets short-lived credentials in the TURN REST form that coturn checks with
`use-auth-secret` (draft-uberti-behave-turn-rest-00, section 2.2):

    username   = "<expiry, Unix seconds>:<user id>"
    credential = base64(HMAC-SHA1(key=the shared secret, message=username))

coturn recomputes the credential from the username with its `static-auth-secret` and refuses a
username whose expiry has passed. The name is the person's, never the match's: coturn counts its
`user-quota` (allocations held at once) by the part after the expiry, so every credential a
person was ever given, in any match, shares that person's one quota (deploy/coturn/,
docs/operations.md
"Calls: STUN and TURN"). Standard library only, and the clock is passed in.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TurnCredentials:
    username: str
    credential: str
    expires_at: int  # Unix seconds


def turn_password(secret: str, username: str) -> str:
    """The credential coturn expects for `username` under the shared secret."""
    digest = hmac.new(secret.encode(), username.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode("ascii")


def turn_credentials(*, secret: str, user_id: int, now: float, ttl_seconds: int) -> TurnCredentials:
    """Credentials for one person, valid `ttl_seconds` from `now`."""
    expires_at = int(now) + ttl_seconds
    username = f"{expires_at}:{user_id}"
    return TurnCredentials(username, turn_password(secret, username), expires_at)


def ice_servers(
    *,
    stun_urls: list[str],
    turn_urls: list[str],
    credentials: TurnCredentials | None,
) -> list[dict[str, Any]]:
    """The `iceServers` of an RTCPeerConnection (W3C WebRTC, RTCIceServer): the STUN URLs, and the
    TURN URLs with these credentials when there are both."""
    servers: list[dict[str, Any]] = []
    if stun_urls:
        servers.append({"urls": list(stun_urls)})
    if turn_urls and credentials is not None:
        servers.append({"urls": list(turn_urls), "username": credentials.username,
                        "credential": credentials.credential})  # fmt: skip
    return servers
