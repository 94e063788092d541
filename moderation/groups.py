"""The "Moderators" group and exactly the permissions moderation needs.

They read users, matches, games, turns, chat, ratings, reports, sanctions, blocks, the audit
trail and tournaments with their players, and may run the moderation actions (each a service:
moderation/services.py, tournaments/services/moderation.py for cancelling a tournament and
removing a player). They change no row directly: no password, rating, board or match can be
edited by a moderator.

Created by migration 0003 (the tournaments' permissions by tournaments' migration 0003) and kept
complete after every `migrate` (and every test flush) by a post_migrate receiver
(moderation/apps.py). Permissions are normally created after migrations; the ones named here are
created if missing, with the names Django gives them.
"""

from __future__ import annotations

MODERATORS = "Moderators"
# (app label, model, codename, name)
MODERATOR_PERMISSIONS = [
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
    # Tournaments (tournaments/admin.py): read them, their players and their moderation trail,
    # cancel one and remove (strike out) a player; series and settings stay staff's.
    ("tournaments", "tournament", "view_tournament", "Can view tournament"),
    ("tournaments", "player", "view_player", "Can view tournament player"),
    ("tournaments", "moderationentry", "view_moderationentry",
     "Can view tournament moderation entry"),
    ("tournaments", "moderationentry", "moderate_tournament",
     "Can cancel tournaments and remove players"),
    # The arena pairs flagged as repeated or unplayed (tournaments/admin.py).
    ("tournaments", "arenapair", "view_arenapair", "Can view arena pair"),
]  # fmt: skip


def ensure_moderators_group(apps) -> None:
    """Create the group (if missing) and set exactly its permissions. `apps`: a migration's
    historical apps, or django.apps.apps."""
    content_types = apps.get_model("contenttypes", "ContentType")
    permissions = apps.get_model("auth", "Permission")
    group, _ = apps.get_model("auth", "Group").objects.get_or_create(name=MODERATORS)
    chosen = []
    for app_label, model, codename, name in MODERATOR_PERMISSIONS:
        content_type, _ = content_types.objects.get_or_create(app_label=app_label, model=model)
        permission, _ = permissions.objects.get_or_create(
            content_type=content_type, codename=codename, defaults={"name": name}
        )
        chosen.append(permission)
    group.permissions.set(chosen)
