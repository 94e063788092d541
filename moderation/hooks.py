"""What moderation needs from the apps above it (games, chat, pairing), which it never imports:
they fill these hooks in their `AppConfig.ready()` (config/hooks.py; docs/architecture.md,
"Architecture").
"""

from django.dispatch import Signal

from config.hooks import AnyOf, Hook, send_to_all

# Sent inside the ban's transaction (moderation.services.user_ban) with `user`: games ends the
# user's live matches as their losses and withdraws their challenges, pairing takes them out of
# the pools, tournaments withdraw them. A receiver that raises rolls the ban back. Sent once more
# after the ban's commit, outside any transaction, for a match that began while the ban waited:
# so receivers must do nothing the second time when there is nothing left to do.
user_banned = Signal()

# (user_id, match_id) -> did the user play in, or chat in, that match? (what a report may name)
took_part_in_match = AnyOf("moderation.took_part_in_match")

# (user_id, other_id, limit) -> the latest `limit` matches the two played together, newest first,
# as (match_id, label) pairs; the label tells one from another (date, rule set, result as
# `user_id` sees it), for the report form's choice.
matches_together = Hook("moderation.matches_together")

# (match_id, viewer_id) -> the same label for one match (as the viewer sees it when they played
# in it), or None when there is no such match: the report form names the match it is about.
match_label = Hook("moderation.match_label")

# (match_id) -> the match's whole chat in order, for the report queue (rows with created_at, user,
# shown_text and get_room_display()).
match_chat = Hook("moderation.match_chat")

# (match_id=..., refuse_party=...) -> the match, locked and annulled: its rating changes reverted
# and its players' records refreshed after commit. Raises CommandError (not_found,
# match_not_finished, already_annulled), and calls `refuse_party(user_id)` for each player first
# (nobody moderates their own case). Runs inside moderation.services.match_annul's transaction.
match_annul = Hook("moderation.match_annul")

# Sent after commit when a moderator closes a report (with a sanction or without), with
# `report_id`, `reporter_id`, `target_id` and `sanctioned` (whether a sanction closed it):
# notifications tells the reporter that it was decided, never the moderator's words. A receiver
# that raises is logged; the report is closed all the same.
report_closed = Signal()


def announce_report_closed(
    report_id: int, reporter_id: int, target_id: int, *, sanctioned: bool
) -> None:
    send_to_all(
        report_closed, "report_closed", f"report {report_id}",
        sender=None, report_id=report_id, reporter_id=reporter_id, target_id=target_id,
        sanctioned=sanctioned,
    )  # fmt: skip
