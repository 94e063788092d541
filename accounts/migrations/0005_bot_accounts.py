"""One account per bot level: they play through the same services as people, roll
automatically, and cannot log in (an unusable password)."""

from django.db import migrations

BOTS = (
    ("beginner", "Bot-Beginner"),
    ("club", "Bot-Club"),
    ("master", "Bot-Master"),
)


def create_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for level, username in BOTS:
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


def remove_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.filter(is_bot=True, bot_level__in=[level for level, _ in BOTS]).update(
        bot_level="", is_bot=False, is_active=False
    )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_bot_level_and_guests")]

    operations = [migrations.RunPython(create_bots, remove_bots)]
