"""The call's commands on the match socket (docs/protocol.md "Calls"), each a typed frozen
dataclass whose wire checks cap every size: a session id, an SDP in parts of at most
SDP_PART_CHARS, an ICE candidate of at most CANDIDATE_CHARS. The server relays what they carry
to the opponent's page and never reads an SDP; it only keeps them small and plain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from realtime.commands import Command, ProtocolError, boolean, wire

# A page's call session: random, chosen by the page (static/js/call.js), so that two tabs of one
# player and a reloaded page are told apart.
SESSION = re.compile(r"[A-Za-z0-9_-]{8,40}")
# An SDP is sent in parts, each one frame under the socket's 4 KiB limit (realtime/socket.py),
# however many `\r\n` JSON escapes it needs: a browser's offer with audio and video is 4–8 KB.
SDP_PART_CHARS = 3000
SDP_PARTS = 4
CANDIDATE_CHARS = 512
MID_CHARS = 32
UFRAG_CHARS = 256  # RFC 8839 section 5.4: ice-ufrag is at most 256 characters
CANDIDATE_KEYS = frozenset({"candidate", "sdpMid", "sdpMLineIndex", "usernameFragment"})
MAX_M_LINES = 16


def _plain(text: str, *, newlines: bool) -> bool:
    """Printable ASCII (and CR LF between SDP lines): what SDP (RFC 8866) and candidates are."""
    return all(" " <= c <= "~" or (newlines and c in "\r\n") for c in text)


def session_from_wire(value: object) -> str:
    if not isinstance(value, str) or not SESSION.fullmatch(value):
        raise ProtocolError(
            "bad_field", _("session must be 8 to 40 letters (a–z, A–Z), digits, “_” or “-”.")
        )
    return value


def sdp_from_wire(value: object) -> str:
    if (
        not isinstance(value, str)
        or not 0 < len(value) <= SDP_PART_CHARS
        or not _plain(value, newlines=True)
    ):
        raise ProtocolError(
            "bad_field",
            _("sdp must be 1 to %(count)s characters of plain text.") % {"count": SDP_PART_CHARS},
        )
    return value


def _part_number(value: object, *, least: int) -> int:
    if type(value) is not int or not least <= value <= SDP_PARTS:
        raise ProtocolError(
            "bad_field",
            _("part and parts must be whole numbers: 0 ≤ part < parts ≤ %(count)s.")
            % {"count": SDP_PARTS},
        )
    return value


def part_from_wire(value: object) -> int:
    return _part_number(value, least=0)


def parts_from_wire(value: object) -> int:
    return _part_number(value, least=1)


def _text_or_none(value: object, limit: int) -> bool:
    return value is None or (
        isinstance(value, str) and len(value) <= limit and _plain(value, newlines=False)
    )


def candidate_from_wire(value: object) -> dict[str, Any]:
    """An RTCIceCandidateInit (W3C WebRTC): its four keys, none other, no nesting."""
    if (
        not isinstance(value, dict)
        or not value.keys() <= CANDIDATE_KEYS
        or not isinstance(value.get("candidate"), str)
        or not _text_or_none(value["candidate"], CANDIDATE_CHARS)
        or not _text_or_none(value.get("sdpMid"), MID_CHARS)
        or not _text_or_none(value.get("usernameFragment"), UFRAG_CHARS)
        or not (
            value.get("sdpMLineIndex") is None
            or (type(value["sdpMLineIndex"]) is int and 0 <= value["sdpMLineIndex"] < MAX_M_LINES)
        )
    ):
        raise ProtocolError(
            "bad_field",
            _(
                "candidate must be an object with candidate (text of at most %(count)s "
                "characters), sdpMid, sdpMLineIndex and usernameFragment."
            )
            % {"count": CANDIDATE_CHARS},
        )
    return dict(value)


flag_from_wire = boolean(gettext_lazy("audio and video must be true or false."))


@dataclass(frozen=True, kw_only=True)
class CallJoin(Command):
    """Ask for this player's ICE servers (with fresh TURN credentials): the ack carries them."""

    type: ClassVar[str] = "call_join"


@dataclass(frozen=True, kw_only=True)
class Relayed(Command):
    """A signalling frame relayed to the opponent's pages, from this page's session."""

    session: str = wire(session_from_wire)

    def relayed(self) -> dict[str, Any]:
        """The frame the opponent's page gets: the same type and wire fields, nothing else."""
        fields = {field.name: getattr(self, field.name) for field in self.wire_fields()}
        return {"type": self.type, **fields}


@dataclass(frozen=True, kw_only=True)
class CallMedia(Relayed):
    """This page is in the call, sending audio and/or video as the flags say (sent on joining
    and at every toggle: mute and camera-off reach the other side)."""

    type: ClassVar[str] = "call_media"
    audio: bool = wire(flag_from_wire)
    video: bool = wire(flag_from_wire)


@dataclass(frozen=True, kw_only=True)
class Addressed(Relayed):
    """A frame for one page of the opponent (its session), which the others ignore."""

    to: str = wire(session_from_wire)


@dataclass(frozen=True, kw_only=True)
class CallOffer(Addressed):
    type: ClassVar[str] = "call_offer"
    sdp: str = wire(sdp_from_wire)
    part: int = wire(part_from_wire)
    parts: int = wire(parts_from_wire)

    def check(self) -> None:
        if self.part >= self.parts:
            raise ProtocolError("bad_field", _("part must be less than parts."))


@dataclass(frozen=True, kw_only=True)
class CallAnswer(CallOffer):
    type: ClassVar[str] = "call_answer"


@dataclass(frozen=True, kw_only=True)
class CallIce(Addressed):
    type: ClassVar[str] = "call_ice"
    candidate: dict[str, Any] = wire(candidate_from_wire)


@dataclass(frozen=True, kw_only=True)
class CallHangup(Relayed):
    """This page leaves the call."""

    type: ClassVar[str] = "call_hangup"


CALL_COMMANDS = (CallJoin, CallMedia, CallOffer, CallAnswer, CallIce, CallHangup)
