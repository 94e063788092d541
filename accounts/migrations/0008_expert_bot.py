"""The Expert level (nardy/bots.py, the learned evaluation of nardy/net.py): its choice, the
constraint that a bot's level is one of the engine's, and its account, made as 0005 made the
others."""

from django.db import migrations, models

EXPERT = ("expert", "Bot-Expert")
LEVELS = ("beginner", "club", "master", "expert")


def create_expert(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    level, username = EXPERT
    User.objects.update_or_create(
        is_bot=True,
        bot_level=level,
        defaults={
            "username": username,
            "email": f"{username.lower()}@bots.invalid",
            "password": "!bot-accounts-never-log-in",
            "auto_roll": True,
            "is_active": True,
        },
    )


def remove_expert(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.filter(is_bot=True, bot_level=EXPERT[0]).delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0007_confirm_turn")]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="bot_level",
            field=models.CharField(
                blank=True,
                choices=[
                    ("beginner", "Beginner"),
                    ("club", "Club player"),
                    ("master", "Master"),
                    ("expert", "Expert"),
                ],
                db_default="",
                default="",
                max_length=16,
                verbose_name="bot level",
            ),
        ),
        migrations.RemoveConstraint(model_name="user", name="user_bot_has_level"),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("bot_level", ""), ("is_bot", False)),
                    models.Q(("bot_level__in", LEVELS), ("is_bot", True)),
                    _connector="OR",
                ),
                name="user_bot_has_level",
            ),
        ),
        migrations.RunPython(create_expert, remove_expert),
    ]
