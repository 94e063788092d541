"""The FIBS rating (decimal `rating`), experience, peak, a fuller history row, and the
per-week/month wins counters. Schema only: 0003 fills the new columns from the existing
rows, 0004 makes `value` the whole number PostgreSQL computes from `rating`. (Kept apart: PostgreSQL
refuses to build indexes in the transaction that just updated the rows.)
"""

from decimal import Decimal

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

DIGITS = {"max_digits": 10, "decimal_places": 4}


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
    ]
