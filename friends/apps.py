from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FriendsConfig(AppConfig):
    name = "friends"
    verbose_name = _("Friends")

    def ready(self) -> None:
        from friends import hook_answers  # the app registry is ready only now

        hook_answers.connect()
