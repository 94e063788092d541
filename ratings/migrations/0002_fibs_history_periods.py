"""The FIBS rating (decimal `rating`, whole-number `value` computed by PostgreSQL), experience,
peak, a fuller history row, and the per-week/month wins counters (issue #13).

Existing rows survive: each rating keeps its value (as the decimal rating), each history row gets
its delta, opponent, length and result from its match, each player's experience and peak are
summed from their history, and the week and month counters are filled from the history.
"""

import datetime
from collections import defaultdict
from decimal import Decimal

import django.db.models.deletion
import django.db.models.functions.comparison
import django.db.models.functions.math
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

DIGITS = {"max_digits": 10, "decimal_places": 4}


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
        rating.peak = max(rating.rating, peak.get(rating.user_id, rating.rating))
        rating.last_rated_at = last.get(rating.user_id)
        rating.save(update_fields=["rating", "experience", "peak", "last_rated_at"])
    PeriodWins.objects.bulk_create(
        PeriodWins(period=period, starts_on=start, user_id=user_id, wins=wins, matches=matches)
        for (period, start, user_id), (wins, matches) in counters.items()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        ("ratings", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(model_name="rating", name="rating_value_desc"),
        migrations.AddField(
            model_name="rating",
            name="rating",
            field=models.DecimalField(default=Decimal("1500"), verbose_name="rating", **DIGITS),
        ),
        migrations.AddField(
            model_name="rating",
            name="peak",
            field=models.DecimalField(
                default=Decimal("1500"), verbose_name="peak rating", **DIGITS
            ),
        ),
        migrations.AddField(
            model_name="rating",
            name="experience",
            field=models.PositiveIntegerField(
                default=0,
                help_text="the sum of the lengths of rated matches played",
                verbose_name="experience",
            ),
        ),
        migrations.AddField(
            model_name="rating",
            name="last_rated_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="last rated match"),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="before",
            field=models.DecimalField(verbose_name="before", **DIGITS),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="after",
            field=models.DecimalField(verbose_name="after", **DIGITS),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="delta",
            field=models.DecimalField(default=Decimal(0), verbose_name="change", **DIGITS),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="length",
            field=models.PositiveSmallIntegerField(default=1, verbose_name="match length"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="won",
            field=models.BooleanField(default=False, verbose_name="won"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="opponent",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="opponent_rating",
            field=models.DecimalField(null=True, verbose_name="opponent's rating", **DIGITS),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="reverted_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="reverted"),
        ),
        migrations.CreateModel(
            name="PeriodWins",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "period",
                    models.CharField(
                        choices=[("week", "week"), ("month", "month")], max_length=5
                    ),
                ),
                ("starts_on", models.DateField()),
                ("wins", models.PositiveIntegerField(default=0)),
                ("matches", models.PositiveIntegerField(default=0)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "wins in a period",
                "verbose_name_plural": "wins in a period",
            },
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.RemoveField(model_name="rating", name="value"),
        migrations.AddField(
            model_name="rating",
            name="value",
            field=models.GeneratedField(
                db_persist=True,
                expression=django.db.models.functions.comparison.Cast(
                    django.db.models.functions.math.Round(models.F("rating")),
                    models.IntegerField(),
                ),
                output_field=models.IntegerField(),
                verbose_name="rating (shown)",
            ),
        ),
    ]
