from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Analysis")

    def ready(self) -> None:
        from analysis import hook_answers  # the app registry is ready only now

        hook_answers.connect()
