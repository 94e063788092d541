from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "pairing"
    verbose_name = _("Pairing")

    def ready(self) -> None:
        from pairing import hook_answers  # the app registry is ready only now

        hook_answers.connect()
