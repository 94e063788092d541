# The correspondence board's rows share live play's abstract model (ratings/models.py
# BoardRating): its experience has the same help text. No change in the database.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0007_correspondence_rating"),
    ]

    operations = [
        migrations.AlterField(
            model_name="correspondencerating",
            name="experience",
            field=models.PositiveIntegerField(
                default=0,
                help_text="the sum of the lengths of rated matches played",
                verbose_name="experience",
            ),
        ),
    ]
