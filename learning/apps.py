from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LearningConfig(AppConfig):
    name = "learning"
    verbose_name = _("Exercises and statistics")

    def ready(self) -> None:
        from learning import hook_answers  # the app registry is ready only now

        hook_answers.connect()
