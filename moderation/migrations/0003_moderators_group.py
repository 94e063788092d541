"""The "Moderators" group with exactly the permissions moderation needs (issue 14).

They read users, matches, games, turns, chat, ratings, reports, sanctions and the audit trail, and
may run the moderation actions (each a service: moderation/services.py). They change no row
directly: no password, rating, board or match can be edited by a moderator.

Permissions are normally created after migrations (post_migrate); the ones named here are created
now if missing, with the names Django would give them, so the group is complete at once.
"""

from django.db import migrations

GROUP = "Moderators"
# (app label, model, codename, name)
PERMISSIONS = [
    ("accounts", "user", "view_user", "Can view user"),
    ("games", "match", "view_match", "Can view match"),
    ("games", "game", "view_game", "Can view game"),
    ("games", "turn", "view_turn", "Can view turn"),
    ("chat", "chatmessage", "view_chatmessage", "Can view chat message"),
    ("ratings", "rating", "view_rating", "Can view rating"),
    ("ratings", "ratingchange", "view_ratingchange", "Can view rating change"),
    ("moderation", "report", "view_report", "Can view report"),
    ("moderation", "sanction", "view_sanction", "Can view sanction"),
    ("moderation", "block", "view_block", "Can view block"),
    ("moderation", "auditentry", "view_auditentry", "Can view audit entry"),
    ("moderation", "auditentry", "warn_user", "Can warn a user"),
    ("moderation", "auditentry", "mute_user", "Can mute a user's chat"),
    ("moderation", "auditentry", "ban_user", "Can ban a user"),
    ("moderation", "auditentry", "lift_sanction", "Can lift a ban or a mute early"),
    ("moderation", "auditentry", "annul_match", "Can annul a match"),
    ("moderation", "auditentry", "close_report", "Can close a report"),
]


def create_group(apps, schema_editor) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.get_or_create(name=GROUP)
    chosen = []
    for app_label, model, codename, name in PERMISSIONS:
        content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
        permission, _ = Permission.objects.get_or_create(
            content_type=content_type, codename=codename, defaults={"name": name}
        )
        chosen.append(permission)
    group.permissions.set(chosen)


def remove_group(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


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
