"""A user's channel-layer group: every socket of theirs, on every Daphne process, joins it
(`SiteSocket.connect`), so a notification or a close reaches each tab. Sent through the process's
publisher (realtime/publisher.py)."""

from typing import Any

from realtime.close_codes import CLOSE_LOGGED_OUT
from realtime.publisher import GroupMessage, publish, publish_on_commit


def user_group_name(user_id: int) -> str:
    return f"user.{user_id}"


def user_message(user_id: int, message: dict[str, Any]) -> GroupMessage:
    """`message` (its "type" names the socket handler) for every socket of the user."""
    return GroupMessage(user_group_name(user_id), message)


def notify_user(user_id: int, payload: dict) -> None:
    """Send `payload` to every socket of the user after commit (`SiteSocket.user_notify`; each
    page's socket passes on what its page shows: a direct challenge, a pairing)."""
    publish_on_commit([user_message(user_id, {"type": "user.notify", "payload": payload})])


def close_user_sockets(user_id: int, *, code: int = CLOSE_LOGGED_OUT) -> None:
    """Close every open socket of the user, on every Daphne process (the user's channel-layer
    group), with `code`."""
    publish([user_message(user_id, {"type": "session.logout", "code": code})])
