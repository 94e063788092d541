from allauth.mfa.admin import AuthenticatorAdmin as BaseAuthenticatorAdmin
from allauth.mfa.models import Authenticator
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.usernames import validate_username
from config.staff_mfa import EnrolmentRefused, enrolment_link_send
from moderation.admin import ModerationActionForm, ModerationPermissions, user_actions
from moderation.admin_secrets import SecretColumnsGuard


class UserRenameForm(UserChangeForm):
    """A changed username follows the same rule as at sign-up (accounts/usernames.py)."""

    def clean_username(self):
        username = self.cleaned_data["username"]
        if "username" in self.changed_data:
            validate_username(username)
        return username


class UserAddForm(AdminUserCreationForm):
    def clean_username(self):
        username = super().clean_username()
        validate_username(username)
        return username


@admin.register(User)
class UserAdmin(SecretColumnsGuard, ModerationPermissions, BaseUserAdmin):
    """Users, with the moderators' warn, mute and ban actions (moderation/services.py). The
    Moderators group only views users: no password or profile field can be changed by it.
    The password hash is a secret column: no filter reads it (moderation/admin_secrets.py); the
    form shows it masked, as Django does."""

    shown_secret_columns = ("password",)
    form = UserRenameForm
    add_form = UserAddForm
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (_("Play"), {"fields": ("language", "auto_roll", "is_guest", "is_bot", "bot_level")}),
    )
    # Bots and guests are set by the site (migrations and accounts/guests.py), not by hand.
    readonly_fields = ("is_guest", "is_bot", "bot_level")
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "is_guest", "is_bot")
    search_fields = ("username", "email")
    action_form = ModerationActionForm
    actions = [*user_actions(lambda user: {"user": user}), "send_enrolment_link"]

    def has_enrol_permission(self, request) -> bool:
        return request.user.is_superuser

    @admin.action(description=_("Send a two-factor enrolment link (staff)"),
                  permissions=["enrol"])  # fmt: skip
    def send_enrolment_link(self, request, queryset):
        """Staff enrol their authenticator only through a link sent to their address
        (config/staff_mfa.py): the superuser checks the address named here."""
        for user in queryset:
            try:
                address = enrolment_link_send(request=request, user=user)
            except EnrolmentRefused as refusal:
                self.message_user(request, str(refusal), messages.ERROR)
            else:
                self.message_user(
                    request,
                    _("Sent %(name)s an enrolment link at %(email)s.")
                    % {"name": user.username, "email": address},
                    messages.SUCCESS,
                )


# allauth's own admin shows an authenticator's `data`, the TOTP secret itself, and lets any
# lookup read it: the same admin without that column.
if admin.site.is_registered(Authenticator):
    admin.site.unregister(Authenticator)


@admin.register(Authenticator)
class AuthenticatorAdmin(SecretColumnsGuard, BaseAuthenticatorAdmin):
    pass
