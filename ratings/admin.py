from django.contrib import admin

from ratings.models import PeriodWins, Rating, RatingChange

# Read-only views: ratings change only through ratings/services.py (a match's end, or its revert
# when a moderator annuls it), never by editing a row here.


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "value", "rating", "peak", "experience", "matches", "wins")
    # The player first (the board's shared columns come first in the model, ratings/models.py
    # BoardRating).
    fields = ("user", "rating", "peak", "experience", "matches", "wins", "history_length",
              "last_rated_at")  # fmt: skip
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("user", "match", "before", "after", "delta", "length", "won", "reverted_at")
    list_filter = ("won", "length")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "match", "opponent")


@admin.register(PeriodWins)
class PeriodWinsAdmin(ReadOnlyAdmin):
    list_display = ("user", "period", "starts_on", "wins", "matches")
    list_filter = ("period",)
    raw_id_fields = ("user",)
