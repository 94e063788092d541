"""Logging out closes that user's open sockets (every tab, every Daphne process)."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver


def user_group_name(user_id: int) -> str:
    return f"user.{user_id}"


@receiver(user_logged_out)
def close_sockets_on_logout(sender, request, user, **kwargs) -> None:  # noqa: ANN001
    if user is None:
        return
    async_to_sync(get_channel_layer().group_send)(
        user_group_name(user.pk), {"type": "session.logout"}
    )
