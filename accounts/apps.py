from allauth.account.apps import AccountConfig
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default = True  # this module holds another app's config too (EmailAddressesConfig, below)
    name = "accounts"
    # The admin's section of the User rows (moderation/admin.py): allauth's own app is also
    # called "Accounts", and two sections of one name left staff guessing which holds what.
    verbose_name = _("Players and staff")

    def ready(self) -> None:
        from accounts import signals  # noqa: F401  (connects the logout handler)


class EmailAddressesConfig(AccountConfig):
    """allauth's account app (settings.INSTALLED_APPS names this class, as Django lets a project
    rename a third-party app: its label stays `account`): in the admin it holds the players'
    email addresses, and says so."""

    default = False
    verbose_name = _("Email addresses")
