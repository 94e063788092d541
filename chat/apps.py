from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Chat")

    def ready(self) -> None:
        # The app registry is ready only now. `consumers` registers chat's commands and part
        # into the match socket (games/consumers.py), which never imports chat.
        from chat import consumers, hook_answers  # noqa: F401

        hook_answers.connect()
