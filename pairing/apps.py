from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "pairing"
    verbose_name = _("Pairing")

    def ready(self) -> None:
        # The app registry is ready only now. `socket` registers quick pairing's commands and
        # part into the lobby socket (games/lobby_socket.py), which never imports pairing.
        from pairing import hook_answers, socket  # noqa: F401

        hook_answers.connect()
