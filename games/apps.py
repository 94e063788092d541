from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games import hook_answers, tasks  # the app registry is ready only now

        hook_answers.connect()
        tasks.connect()
