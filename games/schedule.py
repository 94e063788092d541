"""Work the match services leave to Celery, named here: the services call these hooks after
commit, games/tasks.py fills them with its tasks (config/hooks.py). The tasks call the services,
so the services never import the tasks: no circle of files (docs/architecture.md,
"Architecture")."""

from config.hooks import Hook

# ([(match_id, game_id, turn_number, deadline), ...]): enforce each timed turn's deadline at its
# `deadline` (one command's, or every match of a tournament's pairing wave).
deadlines = Hook("games.schedule.deadlines")

# (match_id, version, pause): the bot acts in the match after `pause` seconds.
bot = Hook("games.schedule.bot")

# (match_id, expires_at): a direct challenge lapses unanswered at `expires_at` (after commit).
challenge_expiry = Hook("games.schedule.challenge_expiry")

# (user_id, match_id, kind): email the player about a correspondence turn
# (games/correspondence_mail.py).
correspondence_email = Hook("games.schedule.correspondence_email")
