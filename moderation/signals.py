"""At login, a warning not yet seen raises its flag again (moderation/middleware.py), in case the
cache lost it."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from moderation.selectors import unseen_warnings
from moderation.warning_flags import flag_unseen_warning


@receiver(user_logged_in)
def flag_warnings_at_login(sender, request, user, **kwargs) -> None:  # noqa: ANN001
    if unseen_warnings(user.pk):
        flag_unseen_warning(user.pk)
