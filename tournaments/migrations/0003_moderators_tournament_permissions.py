"""The Moderators group gets the tournaments' permissions (moderation/groups.py lists them): view
tournaments, their players and moderation trail, cancel a tournament and remove a player, as
moderation's migration 0003 made the group."""

from django.db import migrations


def grant(apps, schema_editor) -> None:
    from moderation.groups import ensure_moderators_group

    ensure_moderators_group(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_showable_names"),
        ("moderation", "0003_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
