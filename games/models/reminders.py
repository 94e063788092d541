"""Which correspondence deadline each match was last reminded of (games/services/reminders.py)."""

from __future__ import annotations

from django.db import models

from games.models.match import Match


class DeadlineReminder(models.Model):
    """The deadline whose "a day left" reminder went out for the match: one row per match,
    moved on to each new deadline as it is reminded, so the sweep sends each one once whatever
    runs it (a claim is one upsert, games/services/reminders.py)."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="deadline_reminder"
    )
    deadline = models.DateTimeField()

    def __str__(self) -> str:
        return f"match #{self.match_id} reminded of {self.deadline:%Y-%m-%d %H:%M}"
