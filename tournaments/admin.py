"""Tournaments in the admin: series (the scheduled hourly, daily and weekly arenas) and one-off
tournaments are made here; a tournament's players and matches are the services' rows, shown
read-only. A moderator cancels a tournament or removes a player through the services
(tournaments/services/moderation.py), each with an audit row, listed read-only. The arena pairs
flagged as repeated or left unplayed (tournaments/arena.py `flagged`) are listed read-only for
moderators, who act on the players through the users' and players' pages."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from moderation.admin import ModerationActionForm, ReadOnlyAdmin, action_inputs, run_each
from moderation.admin_secrets import SecretColumnsGuard
from moderation.services import may_moderate
from tournaments import schedule
from tournaments.models import ArenaPair, ModerationEntry, Player, Series, Status, Tournament
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

    @admin.action(
        description=_("Remove from the tournament (points struck out; a finished one's places "
                      "written again)"),
        permissions=["moderate"],
    )  # fmt: skip
    def remove(self, request, queryset) -> None:
        reason, _duration = action_inputs(request)
        run_each(self, request, queryset, lambda player: tournament_player_remove(
            moderator=request.user, tournament_id=player.tournament_id, user_id=player.user_id,
            reason=reason))  # fmt: skip


@admin.register(ModerationEntry)
class ModerationEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "moderator", "action", "tournament", "target_user", "reason")
    list_filter = ("action",)


@admin.register(ArenaPair)
class ArenaPairAdmin(ReadOnlyAdmin):
    """Two players who met in an arena again and again, or whose matches ended unplayed
    (docs/rules.md "Arena tournaments", item 2): a second account feeding wins shows here. Only
    the flagged pairs; the Moderators group may view them (moderation/groups.py)."""

    list_display = ("flagged_at", "tournament", "first_player", "second_player", "matches",
                    "unplayed", "last_started_at")  # fmt: skip
    list_filter = ("flagged_at", "tournament__rated", "tournament__status")
    search_fields = ("first_player__username", "second_player__username", "tournament__name",
                     "=tournament__id")  # fmt: skip
    list_select_related = ("tournament", "first_player", "second_player")
    raw_id_fields = ("tournament", "first_player", "second_player")
    ordering = ("-flagged_at",)

    def get_queryset(self, request):
        return super().get_queryset(request).filter(flagged_at__isnull=False)

    def changelist_view(self, request, extra_context=None):
        title = {"title": _("Repeated arena pairs")}
        return super().changelist_view(request, {**(extra_context or {}), **title})
