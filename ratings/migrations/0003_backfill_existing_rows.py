"""Existing rows survive (no player loses a rating or a history row to the new formula): each rating
keeps its value (as the decimal rating), each history row gets its delta, opponent, length and
result from its match, each player's experience and peak are summed from their history, and the week
and month counters are filled from it.
"""

import datetime
from collections import defaultdict
from decimal import Decimal

from django.db import migrations
from django.utils import timezone

def period_starts(moment: datetime.datetime) -> tuple[datetime.date, datetime.date]:
    day = timezone.localtime(moment).date()
    return day - datetime.timedelta(days=day.weekday()), day.replace(day=1)


def backfill(apps, schema_editor):
    Rating = apps.get_model("ratings", "Rating")
    RatingChange = apps.get_model("ratings", "RatingChange")
    PeriodWins = apps.get_model("ratings", "PeriodWins")
    before_of = {
        (change.match_id, change.user_id): change.before for change in RatingChange.objects.all()
    }
    experience, peak, last = defaultdict(int), {}, {}
    counters = defaultdict(lambda: [0, 0])
    for change in RatingChange.objects.select_related("match").iterator():
        match = change.match
        opponent_id = match.opponent_id if change.user_id == match.creator_id else match.creator_id
        change.delta = change.after - change.before
        change.length = match.length
        change.won = match.winner_id == change.user_id
        change.opponent_id = opponent_id
        change.opponent_rating = before_of.get((match.pk, opponent_id))
        change.save(update_fields=["delta", "length", "won", "opponent", "opponent_rating"])
        experience[change.user_id] += match.length
        peak[change.user_id] = max(peak.get(change.user_id, change.after), change.after)
        last[change.user_id] = max(last.get(change.user_id, change.created_at), change.created_at)
        week, month = period_starts(change.created_at)
        for key in (("week", week, change.user_id), ("month", month, change.user_id)):
            counters[key][0] += int(change.won)
            counters[key][1] += 1
    for rating in Rating.objects.all():
        rating.rating = Decimal(rating.value)
        rating.experience = experience.get(rating.user_id, 0)
        # Everyone started at 1500 (as ratings/services.py counts the peak).
        rating.peak = max(Decimal(1500), rating.rating, peak.get(rating.user_id, rating.rating))
        rating.last_rated_at = last.get(rating.user_id)
        rating.save(update_fields=["rating", "experience", "peak", "last_rated_at"])
    PeriodWins.objects.bulk_create(
        PeriodWins(period=period, starts_on=start, user_id=user_id, wins=wins, matches=matches)
        for (period, start, user_id), (wins, matches) in counters.items()
    )


class Migration(migrations.Migration):
    dependencies = [("ratings", "0002_fibs_history_periods")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
