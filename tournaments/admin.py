"""Tournaments in the admin: series (the scheduled hourly, daily and weekly arenas) and one-off
tournaments are made here; a tournament's players and matches are the services' rows, shown
read-only. A moderator cancels a tournament or removes a player through the services
(tournaments/services/moderation.py), each with an audit row, listed read-only."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from moderation.admin import ModerationActionForm, ReadOnlyAdmin, action_inputs, run_each
from moderation.admin_secrets import SecretColumnsGuard
from moderation.services import may_moderate
from tournaments import schedule
from tournaments.models import ModerationEntry, Player, Series, Status, Tournament
from tournaments.services.moderation import (
    PERMISSION,
    tournament_cancel,
    tournament_player_remove,
)


class TournamentModeration:
    def has_moderate_permission(self, request) -> bool:
        return may_moderate(request.user, PERMISSION)


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("name", "every", "first_start", "rule_set_name", "length", "minutes",
                    "rated", "active")  # fmt: skip
    list_filter = ("every", "active", "rule_set_name")


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ("user", "points", "wins", "losses", "streak", "withdrawn", "paused", "removed",
              "final_place")  # fmt: skip
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(SecretColumnsGuard, TournamentModeration, admin.ModelAdmin):
    """A private tournament's link token is a secret column (moderation/admin_secrets.py)."""

    list_display = ("id", "name", "status", "starts_at", "ends_at", "rule_set_name", "length",
                    "rated", "private", "created_by", "series")  # fmt: skip
    list_filter = ("status", "rule_set_name", "rated", "private")
    search_fields = ("name", "id")
    raw_id_fields = ("created_by", "series")
    readonly_fields = ("status", "started_at", "finished_at", "version", "created_at")
    inlines = [PlayerInline]
    action_form = ModerationActionForm
    actions = ["cancel"]

    def has_change_permission(self, request, obj=None) -> bool:
        # Once it has started its rules are the players' matches': only the services change it.
        if obj is not None and obj.status != Status.SCHEDULED:
            return False
        return super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        schedule.on_commit_start(obj)  # its start task (again, when moved: early ones do nothing)

    @admin.action(description=_("Cancel the tournament"), permissions=["moderate"])
    def cancel(self, request, queryset) -> None:
        reason, _duration = action_inputs(request)
        run_each(self, request, queryset, lambda tournament: tournament_cancel(
            moderator=request.user, tournament_id=tournament.pk, reason=reason))  # fmt: skip


@admin.register(Player)
class PlayerAdmin(TournamentModeration, ReadOnlyAdmin):
    list_display = ("tournament", "user", "points", "wins", "losses", "removed", "withdrawn")
    list_filter = ("removed", "withdrawn")
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("tournament", "user", "last_opponent", "playing")
    action_form = ModerationActionForm
    actions = ["remove"]

    @admin.action(description=_("Remove from the tournament (points struck out)"),
                  permissions=["moderate"])  # fmt: skip
    def remove(self, request, queryset) -> None:
        reason, _duration = action_inputs(request)
        run_each(self, request, queryset, lambda player: tournament_player_remove(
            moderator=request.user, tournament_id=player.tournament_id, user_id=player.user_id,
            reason=reason))  # fmt: skip


@admin.register(ModerationEntry)
class ModerationEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "moderator", "action", "tournament", "target_user", "reason")
    list_filter = ("action",)
