from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CallsConfig(AppConfig):
    name = "calls"
    verbose_name = _("Calls")

    def ready(self) -> None:
        # The app registry is ready only now. `consumers` registers the call's commands and
        # part into the match socket (games/consumers.py), which never imports calls.
        from calls import consumers  # noqa: F401
