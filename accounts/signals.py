"""Closing a user's open sockets (every tab, every Daphne process) when their session should end:
they log out, their account is deactivated, or their password changes (an open socket would
otherwise keep acting as its user after either), or a moderator bans them.

New sockets are safe already: Channels' auth middleware checks the session's password hash and the
backend refuses inactive users. Open ones are told through the user's channel-layer group, by the
process's publisher (realtime/publisher.py).
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from realtime.groups import close_user_sockets

# What ends every session of a user when it changes.
SESSION_FIELDS = ("is_active", "password")


@receiver(user_logged_out)
def close_sockets_on_logout(sender, request, user, **kwargs) -> None:  # noqa: ANN001
    if user is None:
        return
    close_user_sockets(user.pk)


@receiver(pre_save, sender=get_user_model())
def note_session_fields(sender, instance, update_fields=None, **kwargs) -> None:  # noqa: ANN001
    """Before a user is saved: did a field that ends sessions change? (read from the database,
    so every path counts: the admin, allauth's password change and reset, the shell)."""
    instance._ends_sessions = False
    if instance.pk is None or (
        update_fields is not None and not set(update_fields) & set(SESSION_FIELDS)
    ):
        return  # a new user, or a save that leaves these fields alone (e.g. last_login)
    stored = sender.objects.filter(pk=instance.pk).values(*SESSION_FIELDS).first()
    if stored is not None and any(
        stored[name] != getattr(instance, name) for name in SESSION_FIELDS
    ):
        instance._ends_sessions = True


@receiver(post_save, sender=get_user_model())
def close_sockets_on_session_end(sender, instance, created, **kwargs) -> None:  # noqa: ANN001
    if getattr(instance, "_ends_sessions", False):
        instance._ends_sessions = False
        user_id = instance.pk
        transaction.on_commit(lambda: close_user_sockets(user_id))
