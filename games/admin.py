"""Matches, games and the move log. A match's rules are the engine's: rows of a match being
played are read-only here for everyone (else a live board could be changed by hand), and a
finished match is annulled through moderation's service, never edited."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.models import Game, Match, MatchStatus, Turn
from moderation.admin import (
    ModerationActionForm,
    ModerationPermissions,
    action_inputs,
    chat_log,
    run_each,
)
from moderation.admin_secrets import SecretColumnsGuard
from moderation.services import match_annul


def _is_live(match: Match | None) -> bool:
    return match is not None and match.status in (MatchStatus.OPEN, MatchStatus.ACTIVE)


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = (
        "number",
        "white_seat",
        "phase",
        "turn",
        "result",
        "winner_side",
        "points",
        "finished_at",
    )
    readonly_fields = fields
    show_change_link = True
    can_delete = False


@admin.register(Match)
class MatchAdmin(SecretColumnsGuard, ModerationPermissions, admin.ModelAdmin):
    """Both server seeds and the invite token are secret columns: never shown, filtered on,
    searched or sorted by (moderation/admin_secrets.py), superusers included."""

    list_display = (
        "id", "creator", "opponent", "status", "rule_set_name", "length", "rated",
        "score_creator", "score_opponent", "winner", "end_reason", "annulled_at", "created_at",
    )  # fmt: skip
    list_filter = ("status", "rule_set_name", "rated", "end_reason", "length")
    search_fields = ("creator__username", "opponent__username", "id")
    raw_id_fields = ("creator", "opponent", "winner", "rematch")
    readonly_fields = ("version", "created_at", "started_at", "finished_at", "annulled_at",
                       "chat")  # fmt: skip
    inlines = [GameInline]
    date_hierarchy = "created_at"
    action_form = ModerationActionForm
    actions = ["annul"]

    def has_change_permission(self, request, obj=None) -> bool:
        return not _is_live(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not _is_live(obj) and super().has_delete_permission(request, obj)

    @admin.display(description=_("chat of the match"))
    def chat(self, match: Match):
        return chat_log(match.pk)

    @admin.action(description=_("Annul (ratings reverted, kept in history)"),
                  permissions=["annul"])  # fmt: skip
    def annul(self, request, queryset):
        reason = action_inputs(request)[0]
        run_each(self, request, queryset, lambda match: match_annul(
            moderator=request.user, match_id=match.pk, reason=reason))  # fmt: skip


class TurnInline(admin.TabularInline):
    model = Turn
    extra = 0
    fields = ("number", "side", "player", "dice", "steps", "by_server", "finished_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(SecretColumnsGuard, admin.ModelAdmin):
    list_display = ("id", "match", "number", "phase", "turn", "result", "points")
    list_filter = ("phase", "result")
    raw_id_fields = ("match",)
    inlines = [TurnInline]

    def has_change_permission(self, request, obj=None) -> bool:
        return not (obj is not None and _is_live(obj.match)) and super().has_change_permission(
            request, obj
        )

    def has_delete_permission(self, request, obj=None) -> bool:
        return not (obj is not None and _is_live(obj.match)) and super().has_delete_permission(
            request, obj
        )


@admin.register(Turn)
class TurnAdmin(SecretColumnsGuard, admin.ModelAdmin):
    """The move log is append-only: moderators read it, nobody edits it."""

    list_display = ("id", "game", "number", "side", "player", "dice", "by_server", "finished_at")
    list_filter = ("by_server",)
    raw_id_fields = ("game", "player")

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
