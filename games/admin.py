from django.contrib import admin

from games.models import Game, Match, Turn


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
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id", "creator", "opponent", "status", "rule_set_name", "length", "rated",
        "score_creator", "score_opponent", "winner", "end_reason", "created_at",
    )  # fmt: skip
    list_filter = ("status", "rule_set_name", "rated", "end_reason", "length")
    search_fields = ("creator__username", "opponent__username", "id")
    raw_id_fields = ("creator", "opponent", "winner", "rematch")
    readonly_fields = ("version", "invite_token", "created_at", "started_at", "finished_at")
    inlines = [GameInline]
    date_hierarchy = "created_at"


class TurnInline(admin.TabularInline):
    model = Turn
    extra = 0
    fields = ("number", "side", "player", "dice", "steps", "by_server", "finished_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "number", "phase", "turn", "result", "points")
    list_filter = ("phase", "result")
    raw_id_fields = ("match",)
    inlines = [TurnInline]


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    """The move log is append-only: moderators read it, nobody edits it."""

    list_display = ("id", "game", "number", "side", "player", "dice", "by_server", "finished_at")
    list_filter = ("by_server",)
    raw_id_fields = ("game", "player")

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
