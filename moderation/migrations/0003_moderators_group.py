"""The "Moderators" group with exactly the permissions moderation needs (moderation/groups.py)."""

from django.db import migrations


def create_group(apps, schema_editor) -> None:
    from moderation.groups import ensure_moderators_group

    ensure_moderators_group(apps)


def remove_group(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_audit_append_only"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("accounts", "0003_user_language"),
        ("games", "0004_match_banned_reason_and_annulled"),
        ("chat", "0001_chat_messages_and_mutes"),
        ("ratings", "0005_board_keyset_indexes"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
