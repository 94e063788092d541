"""What analysis announces to the apps above it (notifications), which it never imports
(config/hooks.py; docs/architecture.md, "Architecture")."""

from django.dispatch import Signal

from config.hooks import send_to_all

# Sent after commit when a match's analysis is stored (analysis/services.py `analysis_run`), with
# `match_id` and `requested_by_id` (None for one queued by itself when a rated match ended):
# notifications tells whoever asked. A receiver that raises is logged; the analysis is stored.
analysis_ready = Signal()


def announce_analysis_ready(match_id: int, requested_by_id: int | None) -> None:
    send_to_all(
        analysis_ready, "analysis_ready", f"match {match_id}",
        sender=None, match_id=match_id, requested_by_id=requested_by_id,
    )  # fmt: skip
