from django.contrib import admin

from chat.models import ChatMessage
from moderation.admin import ReadOnlyAdmin


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """Chat is evidence: read-only for everyone."""

    list_display = ("created_at", "match", "room", "user", "text", "phrase")
    list_filter = ("room",)
    search_fields = ("user__username", "text")
    raw_id_fields = ("match", "user")
    date_hierarchy = "created_at"
