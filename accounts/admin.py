from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from moderation.admin import ModerationActionForm, ModerationPermissions, user_actions


@admin.register(User)
class UserAdmin(ModerationPermissions, BaseUserAdmin):
    """Users, with the moderators' warn, mute and ban actions (moderation/services.py). The
    Moderators group only views users: no password or profile field can be changed by it."""

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
