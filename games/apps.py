from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games import correspondence_mail, hook_answers, tasks  # the registry is ready now

        hook_answers.connect()
        tasks.connect()
        correspondence_mail.connect()
