from django.contrib import admin

from moderation.admin_secrets import SecretColumnsGuard
from pairing.models import PairedWait, PoolEntry, Proposal


@admin.register(PoolEntry)
class PoolEntryAdmin(SecretColumnsGuard, admin.ModelAdmin):
    """A wait's server seed is secret until its match ends (moderation/admin_secrets.py)."""

    list_display = ("user", "rule_set_name", "length", "turn_seconds", "rated", "rating",
                    "joined_at", "proposal", "accepted")  # fmt: skip
    list_filter = ("rule_set_name", "length", "turn_seconds", "rated")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "proposal")


@admin.register(Proposal)
class ProposalAdmin(SecretColumnsGuard, admin.ModelAdmin):
    list_display = ("id", "created_at", "expires_at")


@admin.register(PairedWait)
class PairedWaitAdmin(SecretColumnsGuard, admin.ModelAdmin):
    list_display = ("wait_id", "user", "match", "waited_seconds", "paired_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "match")
