from django.apps import AppConfig
from django.core import checks
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
        from moderation.admin_secrets import check_admin_secrets

        # `manage.py check` (and every run) refuses an admin that could reveal a secret column.
        checks.register(check_admin_secrets, checks.Tags.admin)

        # After every migrate (and a test database flush): the group, complete.
        post_migrate.connect(_keep_moderators_group, sender=self)
