from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _keep_moderators_group(sender, using="default", **kwargs) -> None:  # noqa: ANN001
    from django.apps import apps

    from moderation.groups import ensure_moderators_group

    ensure_moderators_group(apps)


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from moderation import signals  # noqa: F401  (connects the login check)

        # After every migrate (and a test database flush): the group, complete.
        post_migrate.connect(_keep_moderators_group, sender=self)
