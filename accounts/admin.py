from allauth.mfa.admin import AuthenticatorAdmin as BaseAuthenticatorAdmin
from allauth.mfa.models import Authenticator
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from moderation.admin import ModerationActionForm, ModerationPermissions, user_actions
from moderation.admin_secrets import SecretColumnsGuard


@admin.register(User)
class UserAdmin(SecretColumnsGuard, ModerationPermissions, BaseUserAdmin):
    """Users, with the moderators' warn, mute and ban actions (moderation/services.py). The
    Moderators group only views users: no password or profile field can be changed by it.
    The password hash is a secret column: no filter reads it (moderation/admin_secrets.py); the
    form shows it masked, as Django does."""

    shown_secret_columns = ("password",)
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (_("Play"), {"fields": ("language", "auto_roll", "is_guest", "is_bot", "bot_level")}),
    )
    # Bots and guests are set by the site (issue #16), not by hand.
    readonly_fields = ("is_guest", "is_bot", "bot_level")
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "is_guest", "is_bot")
    search_fields = ("username", "email")
    action_form = ModerationActionForm
    actions = user_actions(lambda user: {"user": user})


# allauth's own admin shows an authenticator's `data`, the TOTP secret itself, and lets any
# lookup read it: the same admin without that column.
if admin.site.is_registered(Authenticator):
    admin.site.unregister(Authenticator)


@admin.register(Authenticator)
class AuthenticatorAdmin(SecretColumnsGuard, BaseAuthenticatorAdmin):
    pass
