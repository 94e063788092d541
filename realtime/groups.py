"""A user's channel-layer group: every socket of theirs, on every Daphne process, joins it
(`SiteSocket.connect`), so a notification or a close reaches each tab."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from realtime.close_codes import CLOSE_LOGGED_OUT


def user_group_name(user_id: int) -> str:
    return f"user.{user_id}"


def notify_user(user_id: int, payload: dict) -> None:
    """Send `payload` to every socket of the user after commit (`SiteSocket.user_notify`; each
    page's socket passes on what its page shows: a direct challenge, a pairing)."""
    transaction.on_commit(
        lambda: async_to_sync(get_channel_layer().group_send)(
            user_group_name(user_id), {"type": "user.notify", "payload": payload}
        )
    )


def close_user_sockets(user_id: int, *, code: int = CLOSE_LOGGED_OUT) -> None:
    """Close every open socket of the user, on every Daphne process (the user's channel-layer
    group), with `code`."""
    async_to_sync(get_channel_layer().group_send)(
        user_group_name(user_id), {"type": "session.logout", "code": code}
    )
