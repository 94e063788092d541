from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (_("Play"), {"fields": ("language", "auto_roll", "is_guest", "is_bot", "bot_level")}),
    )
    # Bots and guests are set by the site (issue #16), not by hand.
    readonly_fields = ("is_guest", "is_bot", "bot_level")
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "is_guest", "is_bot")
    search_fields = ("username", "email")
